/**
 * report.json for a merchant-side command (`side: receiver | client`), in the same Report shape
 * as `run`, so every renderer (results/render/render.ts) works unchanged. Rules are decided here from
 * per-check outcomes: a failed MUST is FAIL, a failed SHOULD WARN, an OBSERVE INFO; a rule with
 * no check made is SKIP with the reason, never PASS.
 */
import { TOOL } from '../../core/version.ts';
import { tallyStatuses, verdictOf } from './summary.ts';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { Rule, Side } from '../../catalogue/index.ts';
import { mustCounts } from '../../catalogue/report/must-counts.ts';
import type { Evidence, Report, RuleReport } from '../../catalogue/report/model.ts';
import type { KeyObject } from 'node:crypto';
import { persistReport } from './persist-report.ts';
import { classesLine } from './classes.ts';
import { failedStatus, passedStatus } from './level-status.ts';

export interface CheckOutcome {
  /** Shown as the test title, after the rule id. */
  name: string;
  state: 'pass' | 'fail' | 'skip' | 'error';
  message?: string;
  durationMs?: number;
  requests?: number;
  evidence?: Evidence[];
}

export interface RuleJudgement {
  checks: CheckOutcome[];
  /** Why nothing was checked (the rule is SKIP). */
  skipReason?: string;
  observed?: Record<string, unknown>;
}

export function decideRule(rule: Rule, j: RuleJudgement, replay: string): RuleReport {
  const base: RuleReport = {
    id: rule.id, area: rule.area, level: rule.level, status: 'skip', title: rule.requirement, spec: rule.section, evidence: [],
    tests: j.checks.map((c) => ({
      title: `${rule.id}: ${c.name}`,
      state: c.state === 'error' ? 'fail' : c.state,
      duration_ms: Math.round(c.durationMs ?? 0),
      requests: c.requests ?? 0,
      ...(c.message && c.state !== 'pass' ? { error: c.message } : {}),
    })),
  };
  if (rule.ruling) base.ruling = rule.ruling;
  if (rule.untestable) return { ...base, untestable: true, reason: `not exercisable by this command: ${rule.untestable}` };
  if (j.observed && Object.keys(j.observed).length) base.observed = j.observed;
  const failed = j.checks.filter((c) => c.state === 'fail');
  const errored = j.checks.filter((c) => c.state === 'error');
  for (const c of [...failed, ...errored].slice(0, 6)) {
    base.evidence.push(...(c.evidence ?? [{ kind: 'mismatch' as const, message: `${c.name}: ${c.message ?? 'failed'}` }]));
  }
  if (failed.length) {
    base.evidence.push({ kind: 'replay', command: replay });
    const status = failedStatus(rule.level);
    const more = failed.length > 1 ? `; ${failed.length} checks failed` : '';
    return { ...base, status, reason: `${failed[0]!.name}: ${failed[0]!.message ?? 'failed'}${more}` };
  }
  if (errored.length) return { ...base, status: 'error', reason: `${errored[0]!.name}: ${errored[0]!.message ?? 'transport trouble'}` };
  if (!j.checks.some((c) => c.state === 'pass')) return { ...base, status: 'skip', reason: j.skipReason ?? '0 checks made' };
  for (const c of j.checks) for (const e of c.evidence ?? []) if (e.kind === 'note') base.evidence.push(e);
  return { ...base, status: passedStatus(rule.level) };
}

export function buildSideReport(a: {
  side: Side; baseUrl: string; embedded: boolean; seed: number; startedAt: Date; rules: RuleReport[]; requests: number;
}): Report {
  const finished = new Date();
  return {
    tool: TOOL,
    side: a.side,
    target: { base_url: a.baseUrl, embedded_reference: a.embedded },
    run_id: `${a.side === 'receiver' ? 'rr' : 'cc'}${Date.now().toString(36)}${randomBytes(2).toString('hex')}`,
    seed: a.seed,
    runs: 1,
    started_at: a.startedAt.toISOString(),
    finished_at: finished.toISOString(),
    duration_ms: finished.getTime() - a.startedAt.getTime(),
    selection: { areas: [a.side], rules: [] },
    verdict: verdictOf(a.rules),
    summary: tallyStatuses(a.rules),
    must: mustCounts(a.rules),
    requests: a.requests,
    rules: a.rules,
  };
}

/** Writes report.json, certificate.json (the merchant-side certification: signed when a key is given) and the renderings. */
export function writeSideReport(dir: string | undefined, report: Report, signKey?: KeyObject): string {
  const out = resolve(dir ?? join('reports', 'runs', report.run_id));
  persistReport(out, report, { certificate: { profile: null, key: signKey } });
  return out;
}

/** How the closing sentence names the requests, and whether the run had a seed (the proxy has neither a command of its own nor a seed). */
export interface RanWords {
  unit?: string;
  seeded?: boolean;
}

/** What a merchant-side run ran, in one sentence (the console says it instead of a certification line). */
export function whatRan(report: Report, words: RanWords = {}): string {
  const m = report.must;
  const unit = words.unit ?? (report.side === 'receiver' ? 'requests to the receiver' : 'requests from the command');
  const ran = `${m.ran} of ${m.testable} testable MUST rules ran (${m.passed} passed, ${m.failed} failed, ${m.skipped} skipped)`;
  const seed = words.seeded === false ? '' : `; seed ${report.seed}`;
  return `${report.side} run: ${ran}, ${m.untestable} not testable through the wire; ${report.requests} ${unit}${seed}`;
}

const MAX_CHECK_LINES = 40;

export function printSideSummary(report: Report, dir: string, log: (l: string) => void, words?: RanWords): void {
  for (const r of report.rules.filter((x) => ['fail', 'warn', 'error'].includes(x.status))) {
    const failing = r.tests.filter((t) => t.state === 'fail');
    const why = failing.length > 1 ? `${failing.length} checks failed` : r.reason ?? '';
    log(`  ${r.status.toUpperCase().padEnd(5)} ${r.id} — ${why}`.slice(0, 300));
    // Every failing check, not only the first (bounded: a command can make thousands of requests).
    if (failing.length > 1) {
      for (const t of failing.slice(0, MAX_CHECK_LINES)) {
        log(`        ${t.title.replace(`${r.id}: `, '')}${t.error ? `: ${t.error}` : ''}`.slice(0, 400));
      }
    }
    if (failing.length > MAX_CHECK_LINES) log(`        … and ${failing.length - MAX_CHECK_LINES} more (report.json has them all)`);
  }
  for (const r of report.rules.filter((x) => x.untestable && x.level === 'MUST')) {
    log(`  NOT TESTABLE ${r.id} — ${r.title} (${(r.reason ?? '').replace(/^not exercisable by this command: /, '')})`.slice(0, 400));
  }
  const s = report.summary;
  const tally = `pass ${s.pass} · fail ${s.fail} · warn ${s.warn} · info ${s.info} · skip ${s.skip}`;
  log(`verdict: ${report.verdict} · ${tally}${s.error ? ` · error ${s.error}` : ''}`);
  for (const why of report.policy?.failed_because ?? []) log(`  ${why}`.slice(0, 1000));
  for (const why of (report.incomplete_because ?? []).slice(0, MAX_CHECK_LINES)) log(`  NOT PROVEN ${why}`.slice(0, 1000));
  if (report.classes) log(classesLine(report.classes));
  log(whatRan(report, words));
  log(`report: ${join(dir, 'report.html')}`);
}
