/**
 * What must catch each planted fault of reference/faults/limits.ts: the catalogue rules that must fail (or warn, for a SHOULD rule).
 */
import type { LIMITS_FAULTS } from '../../reference/faults/limits.ts';
import type { ExpectationsOf } from './expectation.ts';

export const LIMITS_EXPECTED = {
  'rate-limit-throws-plain-error': { breaks: ['LIMIT-RATE-429'] },
  'rate-limit-retry-after-http-date': { breaks: ['LIMIT-RETRY-AFTER'] },
  'rate-limit-retry-after-floor': { breaks: ['LIMIT-RECOVERY'] },
  'rate-limit-blocks-business': { breaks: ['LIMIT-PER-KEY'] },
} as const satisfies ExpectationsOf<typeof LIMITS_FAULTS>;
