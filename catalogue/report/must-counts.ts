/**
 * The MUST tally of a report (report.json `must`), the same for every side certified:
 * what ran, passed, failed and was skipped among the testable MUST rules.
 */
import type { Report, RuleReport } from './model.ts';

/**
 * A testable MUST rule left SKIP: what `--strict` fails (results/verdict/policy.ts, and junit.xml's
 * failures under it, results/render/junit.ts) and `must.skipped` counts, on every side.
 */
export function skippedTestableMust(r: RuleReport): boolean {
  return r.level === 'MUST' && r.status === 'skip' && !r.untestable;
}

export function mustCounts(rules: readonly RuleReport[]): Report['must'] {
  const must = rules.filter((r) => r.level === 'MUST');
  return {
    total: must.length,
    testable: must.filter((r) => !r.untestable).length,
    untestable: must.filter((r) => r.untestable).length,
    ran: must.filter((r) => r.status === 'pass' || r.status === 'fail' || r.status === 'flaky').length,
    passed: must.filter((r) => r.status === 'pass').length,
    failed: must.filter((r) => r.status === 'fail').length,
    skipped: must.filter(skippedTestableMust).length,
  };
}
