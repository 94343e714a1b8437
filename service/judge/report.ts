/**
 * The judge's findings as report.json (the service side, the rules judged as its selection), so
 * every renderer, `report --compare` and the certificate work unchanged; `source_log` ties the
 * verdict to the log it came from (its SHA-256, size, lines, what it watched).
 */
import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import { getRule, type RuleId } from '../../catalogue/index.ts';
import { TOOL } from '../../core/version.ts';
import { mustCounts } from '../../catalogue/report/must-counts.ts';
import type { Evidence, Report, RuleReport, RuleStatus } from '../../catalogue/report/model.ts';
import { PARTLY_CHECKED } from '../../catalogue/report/partly-checked.ts';
import { timelineEvidence } from '../../catalogue/report/timeline.ts';
import { tallyStatuses, verdictOf } from '../../results/verdict/summary.ts';
import { failedStatus, passedStatus } from '../../results/verdict/level-status.ts';
import { JUDGED_RULES, type Group, type Judgement, type RuleFinding } from './judge.ts';
import type { ReadLog } from './read-log.ts';
import { RETRY_GAPS_MS, scaledGapMs, type Timing } from './schedule.ts';

const MAX_FAILURE_EVIDENCE = 6;
const MAX_TIMELINES = 3;
const MAX_NOTES = 5;

export interface JudgeInput {
  logFile: string;
  log: ReadLog;
  judgement: Judgement;
  timing: Timing;
  baseUrl: string | null;
  startedAt: Date;
  /** The command line that judges this log again. */
  replay: string;
}

export function buildJudgeReport(i: JudgeInput): Report {
  const rules = JUDGED_RULES.map((id) => ruleReport(id, i.judgement.findings[id], i));
  const finished = new Date();
  const events = new Set(i.judgement.groups.map((g) => g.label)).size;
  return {
    tool: TOOL,
    side: 'service',
    target: { base_url: i.baseUrl ?? '(not given: judged from a sink log without --profile)', embedded_reference: false },
    run_id: `wj${Date.now().toString(36)}${randomBytes(2).toString('hex')}`,
    seed: 0,
    runs: 1,
    started_at: i.startedAt.toISOString(),
    finished_at: finished.toISOString(),
    duration_ms: finished.getTime() - i.startedAt.getTime(),
    selection: { areas: ['webhooks'], rules: [...JUDGED_RULES] },
    verdict: verdictOf(rules),
    summary: tallyStatuses(rules),
    must: mustCounts(rules),
    requests: 0,
    rules,
    source_log: {
      file: basename(i.logFile),
      bytes: i.log.bytes,
      sha256: i.log.sha256,
      lines: i.log.lines,
      skipped_lines: i.log.skippedLines,
      deliveries: i.log.attempts.length,
      events,
      time_scale: i.timing.timeScale,
      watched_from: new Date(i.log.firstAt).toISOString(),
      watched_until: new Date(i.judgement.watchedUntil).toISOString(),
      stopped_in_order: i.log.stoppedAt !== null,
      restarts: Math.max(0, i.log.starts.length - 1),
    },
  };
}

/** The obligations a rule judged from a log leaves untried when the log could not show all it states (`partly`). */
const PARTLY_UNTRIED: Partial<Record<(typeof JUDGED_RULES)[number], readonly string[]>> = {
  'HOOK-RETRY-SCHEDULE': ['delivery-rules.retry-schedule#gaps', 'limits.webhook-retry-schedule'],
  'HOOK-RETRY-PUNCTUAL': ['delivery-rules.retry-schedule#gaps', 'limits.webhook-retry-schedule'],
  'HOOK-MAX-ATTEMPTS': ['delivery-rules.retry-schedule#count'],
};

function ruleReport(id: (typeof JUDGED_RULES)[number], f: RuleFinding, i: JudgeInput): RuleReport {
  const rule = getRule(id as RuleId);
  const observed: Record<string, unknown> = {
    ...f.observed,
    ...(f.partly ? { [PARTLY_CHECKED]: `${f.partly}; a longer sink run would complete it` } : {}),
  };
  const status: RuleStatus = f.failures.length ? failedStatus(rule.level) : f.checks === 0 ? 'skip' : passedStatus(rule.level);
  const evidence: Evidence[] = [];
  for (const message of f.failures.slice(0, MAX_FAILURE_EVIDENCE)) evidence.push({ kind: 'mismatch', message });
  if (f.failures.length > MAX_FAILURE_EVIDENCE) evidence.push({
    kind: 'note',
    message: `… and ${f.failures.length - MAX_FAILURE_EVIDENCE} more`,
  });
  for (const g of f.failing.slice(0, MAX_TIMELINES)) evidence.push(timelineOf(g, i.timing));
  if (f.failures.length) evidence.push({ kind: 'replay', command: i.replay });
  for (const message of f.notes.slice(0, MAX_NOTES)) evidence.push({ kind: 'note', message });
  const reason = f.failures.length ? `${f.failures[0]}${f.failures.length > 1 ? `; ${f.failures.length} ` +
    `violations` : ''}` : f.checks === 0 ? f.skipReason : undefined;
  const why = `${f.partly}; a longer sink run would try it`;
  const untried = f.partly ? (PARTLY_UNTRIED[id] ?? []).map((obligation) => ({ obligation, why })) : [];
  return {
    ...(untried.length ? { not_tried: untried } : {}),
    id: rule.id, area: rule.area, level: rule.level, status, title: rule.requirement, spec: rule.section,
    ...(rule.ruling ? { ruling: rule.ruling } : {}),
    ...(reason ? { reason } : {}),
    evidence,
    observed,
    checks: f.checks,
    tests: [{
      title: `${rule.id}: judged from the sink log`,
      state: f.failures.length ? 'fail' : f.checks === 0 ? 'skip' : 'pass',
      duration_ms: 0,
      requests: 0,
      ...(reason && f.failures.length ? { error: reason } : {}),
    }],
  };
}

function timelineOf(g: Group, t: Timing) {
  const arrivals = g.attempts.map((a) => ({ receivedAt: a.at, status: a.answer }));
  return timelineEvidence(g.attempts[0]!.eventId, g.label, arrivals, RETRY_GAPS_MS.map((_, n) => scaledGapMs(t, n + 1)));
}
