/**
 * What must catch each planted fault of reference/faults/model.ts: the catalogue rules that must fail (or warn, for a SHOULD rule).
 */
import type { MODEL_FAULTS } from '../../reference/faults/model.ts';
import type { ExpectationsOf } from './expectation.ts';

export const MODEL_EXPECTED = {
  'replay-after-transition-recreates': { breaks: ['MODEL-SEQUENCES'] },
  'list-external-id-stale-status': { breaks: ['MODEL-SEQUENCES'] },
} as const satisfies ExpectationsOf<typeof MODEL_FAULTS>;
