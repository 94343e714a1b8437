/** A report's tally by status and its verdict, the same for the service side and the merchant side. */
import type { RuleReport, RuleStatus, Verdict } from '../../catalogue/report/model.ts';

export function tallyStatuses(rules: readonly RuleReport[]): Record<RuleStatus, number> {
  const summary: Record<RuleStatus, number> = { pass: 0, fail: 0, warn: 0, info: 0, skip: 0, error: 0, flaky: 0 };
  for (const r of rules) summary[r.status]++;
  return summary;
}

/**
 * The rules' first word: a MUST rule that failed once (even if its replay passed: FLAKY) is not
 * conformant; one that could not be checked (ERROR) leaves it incomplete. The skips and the policy
 * are weighed after (results/verdict/incomplete.ts settleVerdict).
 */
export function verdictOf(rules: readonly RuleReport[]): Verdict {
  if (rules.some((r) => r.level === 'MUST' && (r.status === 'fail' || r.status === 'flaky'))) return 'not_conformant';
  return rules.some((r) => r.level === 'MUST' && r.status === 'error') ? 'incomplete' : 'conformant';
}
