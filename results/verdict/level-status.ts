/**
 * Level → status, decided once for every side (run's collect.ts, the webhook judge, the merchant
 * side): a failed check makes a MUST rule FAIL, a SHOULD rule WARN and an OBSERVE rule INFO (it
 * records what the spec leaves open, never fails); checks that all passed make a rule PASS, an
 * OBSERVE rule INFO (it never passes either). What has no check at all is SKIP, decided by each side.
 */
import type { Level } from '../../catalogue/index.ts';
import type { RuleStatus } from '../../catalogue/report/model.ts';

/** The status of a rule one of whose checks failed. */
export function failedStatus(level: Level): RuleStatus {
  return level === 'MUST' ? 'fail' : level === 'SHOULD' ? 'warn' : 'info';
}

/** The status of a rule whose checks (at least one) all passed. */
export function passedStatus(level: Level): RuleStatus {
  return level === 'OBSERVE' ? 'info' : 'pass';
}
