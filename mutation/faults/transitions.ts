/**
 * What must catch each planted fault of reference/faults/transitions.ts: the catalogue rules that must fail (or warn, for a SHOULD rule).
 */
import type { TRANSITIONS_FAULTS } from '../../reference/faults/transitions.ts';
import type { ExpectationsOf } from './expectation.ts';

export const TRANSITIONS_EXPECTED = {
  'timestamps-default-to-created-at': { breaks: ['TRANS-CREATE-PENDING', 'TRANS-CANCEL', 'TRANS-HELPER-SUCCEED', 'TRANS-HELPER-CANCEL'] },
  'cancel-forgets-cancelled-at': { breaks: ['TRANS-CANCEL'] },
  'succeed-forgets-paid-at': { breaks: ['TRANS-HELPER-SUCCEED'] },
  'helper-cancel-not-persisted': { breaks: ['TRANS-HELPER-CANCEL', 'TRANS-ILLEGAL'] },
  'cancelled-at-truncated-to-minute': { breaks: ['TRANS-CANCEL', 'TRANS-HELPER-CANCEL'] },
  'cancel-allowed-from-paid': { breaks: ['TRANS-ILLEGAL', 'TRANS-REVERSED'] },
  'succeed-on-paid-answers-200': { breaks: ['TRANS-ILLEGAL'] },
  'helper-cancel-ignores-state': { breaks: ['TRANS-ILLEGAL', 'TRANS-REVERSED'] },
  'reversal-not-persisted': { breaks: ['TRANS-REVERSED', 'TRANS-ILLEGAL'] },
} as const satisfies ExpectationsOf<typeof TRANSITIONS_FAULTS>;
