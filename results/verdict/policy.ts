/**
 * Verdict policies a CI job can ask for on top of the spec's levels:
 * `--strict` (a WARN, a FLAKY or a skipped testable MUST rule also fails) and
 * `--min-must-coverage PCT` (too few testable MUST rules ran). Applied to a
 * built report; the rules' own statuses are never changed, only the verdict,
 * with the reasons recorded in `report.policy`.
 */
import type { Interruption, Report } from '../../catalogue/report/model.ts';
import { skippedTestableMust } from '../../catalogue/report/must-counts.ts';
import { settleVerdict } from './incomplete.ts';

export interface VerdictPolicy {
  strict?: boolean;
  /** 0-100: the share of testable MUST rules that must have run. */
  minMustCoverage?: number;
  /** The run stopped early for this reason (fail fast): rules not reached are marked so. */
  stopped?: string;
  /** The run was interrupted (SIGINT/SIGTERM): rules not reached say so, not "no test in this selection". */
  interrupted?: Interruption;
}

/** What collect.ts says of a rule none of whose tests ran or said why it skipped. */
const NOTHING_SAID = new Set(['no test in this selection', 'skipped']);

/** The reason of a rule an interrupted run did not reach (`not reached (interrupted after 10.7 s)`). */
function notReachedReason(i: Interruption): string {
  return `not reached (interrupted after ${i.after_s} s)`;
}

export function mustCoverage(report: Report): { ran: number; testable: number; pct: number } {
  const { ran, testable } = report.must;
  return { ran, testable, pct: testable === 0 ? 0 : Math.floor((ran / testable) * 1000) / 10 };
}

const ids = (rs: Report['rules']) => rs.map((r) => r.id).slice(0, 10).join(', ') + (rs.length > 10 ? `, … (${rs.length})` : '');

export function applyVerdictPolicy(report: Report, p: VerdictPolicy): void {
  if (p.interrupted) {
    for (const r of report.rules) {
      if (r.status === 'skip' && !r.untestable && NOTHING_SAID.has(r.reason ?? '')) r.reason = notReachedReason(p.interrupted);
    }
  }
  if (p.stopped) {
    report.stopped = p.stopped;
    for (const r of report.rules) {
      if (r.status === 'skip' && !r.untestable && r.tests.every((t) => t.state === 'skip')) r.reason = `not reached: ${p.stopped}`;
    }
  }
  if (p.strict || p.minMustCoverage !== undefined) report.policy = {
    strict: p.strict === true,
    ...(p.minMustCoverage !== undefined ? { min_must_coverage: p.minMustCoverage } : {}),
    failed_because: policyFailures(report, p),
  };
  settleVerdict(report);
}

/** What `--strict` and `--min-must-coverage` find wrong with a report, one line each. */
function policyFailures(report: Report, p: VerdictPolicy): string[] {
  const because: string[] = [];
  if (p.strict) {
    const warned = report.rules.filter((r) => r.status === 'warn');
    const flaky = report.rules.filter((r) => r.status === 'flaky');
    const skipped = report.rules.filter(skippedTestableMust);
    if (warned.length) because.push(`--strict: ${warned.length} SHOULD rule(s) warned (${ids(warned)})`);
    if (flaky.length) because.push(`--strict: ${flaky.length} rule(s) flaky (${ids(flaky)})`);
    if (skipped.length) because.push(`--strict: ${skipped.length} testable MUST rule(s) skipped (${ids(skipped)})`);
  }
  if (p.minMustCoverage !== undefined) {
    const c = mustCoverage(report);
    if (c.pct < p.minMustCoverage) because.push(`--min-must-coverage ${p.minMustCoverage}: ${c.ran} of ${c.testable} testable MUST ` +
      `rules ran (${c.pct} %)`);
  }
  return because;
}
