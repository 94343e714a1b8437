/**
 * The exit status a report stands for: 1 when a MUST rule failed, a setup request was refused, or
 * the verdict is not conformant (a policy failed), 3 when a MUST rule could not be checked (the
 * target's trouble), 6 when the verdict is incomplete (nothing failed, a testable MUST rule not
 * proven), 0 otherwise.
 */
import { EXIT } from '../../core/errors.ts';
import type { Report } from '../../catalogue/report/model.ts';
import { failingRefusals } from './incomplete.ts';

export function exitCodeOf(report: Report): number {
  if (report.rules.some((r) => (r.status === 'fail' || r.status === 'flaky') && r.level === 'MUST')) return EXIT.notConformant;
  if (failingRefusals(report).length) return EXIT.notConformant;
  if (report.rules.some((r) => r.status === 'error' && r.level === 'MUST')) return EXIT.target;
  if (report.verdict === 'not_conformant') return EXIT.notConformant;
  return report.verdict === 'incomplete' ? EXIT.incomplete : EXIT.conformant;
}
