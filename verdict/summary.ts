/** A report's tally by status and its verdict, the same for the service side and the merchant side. */
import type { RuleReport, RuleStatus } from '../report/model.ts';

export function tallyStatuses(rules: readonly RuleReport[]): Record<RuleStatus, number> {
  const summary: Record<RuleStatus, number> = { pass: 0, fail: 0, warn: 0, info: 0, skip: 0, error: 0, flaky: 0 };
  for (const r of rules) summary[r.status]++;
  return summary;
}

/** A MUST rule that failed once (even if its replay passed: FLAKY), or could not be checked (ERROR), withholds conformance. */
export function verdictOf(rules: readonly RuleReport[]): 'conformant' | 'not_conformant' {
  const mustFailed = rules.some((r) => r.level === 'MUST' && (r.status === 'fail' || r.status === 'error' || r.status === 'flaky'));
  return mustFailed ? 'not_conformant' : 'conformant';
}
