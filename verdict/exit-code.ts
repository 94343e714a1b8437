/** The exit status a report stands for: 1 when a MUST rule failed (or a setup request was refused), 3 when one could not be checked, 0 otherwise. */
import { EXIT } from '../core/errors.ts';
import type { Report } from '../report/model.ts';

export function exitCodeOf(report: Report): number {
  if (report.rules.some((r) => (r.status === 'fail' || r.status === 'flaky') && r.level === 'MUST')) return EXIT.notConformant;
  if (report.setup_refusals?.length) return EXIT.notConformant;
  if (report.rules.some((r) => r.status === 'error' && r.level === 'MUST')) return EXIT.target;
  return EXIT.conformant;
}
