/**
 * What must catch each planted fault of reference/faults/idempotency.ts: the catalogue rules that must fail (or warn, for a SHOULD rule).
 */
import type { IDEMPOTENCY_FAULTS } from '../../reference/faults/idempotency.ts';
import type { ExpectationsOf } from './expectation.ts';

export const IDEMPOTENCY_EXPECTED = {
  'idempotency-key-ignored': { breaks: ['IDEM-REPLAY', 'IDEM-REPLAY-EXTERNAL-ID', 'IDEM-CONFLICT', 'IDEM-IN-PROGRESS'] },
  'idempotency-ignores-body': { breaks: ['IDEM-CONFLICT'] },
  'idempotency-scoped-to-business': { breaks: ['IDEM-SCOPED-TO-API-KEY'] },
  'idempotency-no-in-progress-guard': { breaks: ['IDEM-IN-PROGRESS'] },
  'replay-rechecks-external-id': { breaks: ['IDEM-REPLAY', 'IDEM-REPLAY-EXTERNAL-ID', 'IDEM-CONFLICT', 'IDEM-IN-PROGRESS'] },
  'external-id-not-unique': { breaks: ['IDEM-EXTERNAL-ID-CONFLICT'] },
  'external-id-unique-across-businesses': { breaks: ['IDEM-EXTERNAL-ID-SCOPE', 'IDEM-SCOPED-TO-API-KEY'] },
  'external-id-unique-across-environments': { breaks: ['IDEM-EXTERNAL-ID-SCOPE'] },
  'idempotency-key-case-folded': { breaks: ['IDEM-VALUES-EXACT'] },
  'external-id-case-folded': { breaks: ['IDEM-VALUES-EXACT'] },
  'external-id-compared-trimmed': { breaks: ['IDEM-VALUES-EXACT'] },
} as const satisfies ExpectationsOf<typeof IDEMPOTENCY_FAULTS>;
