/**
 * report.json for a merchant-side command (`side: receiver | client`), in the same Report shape
 * as `run`, so every renderer (render/render.ts) works unchanged. Rules are decided here from
 * per-check outcomes: a failed MUST is FAIL, a failed SHOULD WARN, an OBSERVE INFO; a rule with
 * no check made is SKIP with the reason, never PASS.
 */
import { TOOL } from '../core/version.ts';
import { tallyStatuses, verdictOf } from '../verdict/summary.ts';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Rule, Side } from '../catalogue/index.ts';
import { mustCounts } from '../report/must-counts.ts';
import { renderAll } from '../render/render.ts';
import type { Evidence, Report, RuleReport, RuleStatus } from '../report/model.ts';

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
      title: `${rule.id}: ${c.name}`, state: c.state === 'error' ? 'fail' : c.state, duration_ms: Math.round(c.durationMs ?? 0), requests: c.requests ?? 0,
      ...(c.message && c.state !== 'pass' ? { error: c.message } : {}),
    })),
  };
  if (rule.ruling) base.ruling = rule.ruling;
  if (rule.untestable) return { ...base, untestable: true, reason: `not exercisable by this command: ${rule.untestable}` };
  if (j.observed && Object.keys(j.observed).length) base.observed = j.observed;
  const failed = j.checks.filter((c) => c.state === 'fail');
  const errored = j.checks.filter((c) => c.state === 'error');
  for (const c of [...failed, ...errored].slice(0, 6)) base.evidence.push(...(c.evidence ?? [{ kind: 'mismatch' as const, message: `${c.name}: ${c.message ?? 'failed'}` }]));
  if (failed.length) {
    base.evidence.push({ kind: 'replay', command: replay });
    const status: RuleStatus = rule.level === 'MUST' ? 'fail' : rule.level === 'SHOULD' ? 'warn' : 'info';
    return { ...base, status, reason: `${failed[0]!.name}: ${failed[0]!.message ?? 'failed'}${failed.length > 1 ? `; ${failed.length} checks failed` : ''}` };
  }
  if (errored.length) return { ...base, status: 'error', reason: `${errored[0]!.name}: ${errored[0]!.message ?? 'transport trouble'}` };
  if (!j.checks.some((c) => c.state === 'pass')) return { ...base, status: 'skip', reason: j.skipReason ?? '0 checks made' };
  for (const c of j.checks) for (const e of c.evidence ?? []) if (e.kind === 'note') base.evidence.push(e);
  return { ...base, status: rule.level === 'OBSERVE' ? 'info' : 'pass' };
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

export function writeSideReport(dir: string | undefined, report: Report): string {
  const out = resolve(dir ?? join('reports', 'runs', report.run_id));
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'report.json'), JSON.stringify(report, null, 2) + '\n');
  renderAll(out, report);
  return out;
}

export function printSideSummary(report: Report, dir: string, log: (l: string) => void): void {
  for (const r of report.rules.filter((x) => ['fail', 'warn', 'error'].includes(x.status))) {
    log(`  ${r.status.toUpperCase().padEnd(5)} ${r.id} — ${r.reason ?? ''}`.slice(0, 300));
  }
  const s = report.summary;
  log(`verdict: ${report.verdict} · pass ${s.pass} · fail ${s.fail} · warn ${s.warn} · info ${s.info} · skip ${s.skip}${s.error ? ` · error ${s.error}` : ''}`);
  log(`MUST rules: ${report.must.ran} of ${report.must.testable} testable ran (${report.must.passed} passed, ${report.must.failed} failed, ${report.must.skipped} skipped; ${report.must.untestable} not exercisable) · ${report.requests} requests · ${(report.duration_ms / 1000).toFixed(1)} s`);
  if (report.must.skipped > 0) log(`not a certification: ${report.must.skipped} MUST rule(s) skipped (${report.rules.filter((r) => r.level === 'MUST' && r.status === 'skip' && !r.untestable).map((r) => r.id).join(', ')})`);
  log(`report: ${join(dir, 'report.html')}`);
}
