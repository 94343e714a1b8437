/**
 * Planted faults of the idempotency area (Rules 1-4 of createPayment, Idempotency-Key scope),
 * each a realistic bug in reference/create-payment.ts, with the rule ids it must make fail.
 */
import type { FaultDefinition } from '../faults.ts';

export const IDEMPOTENCY_FAULTS = {
  'idempotency-key-ignored': {
    description: 'The Idempotency-Key header is never used: every request is processed anew.',
    breaks: ['IDEM-REPLAY', 'IDEM-REPLAY-EXTERNAL-ID', 'IDEM-CONFLICT', 'IDEM-IN-PROGRESS'],
  },
  'idempotency-ignores-body': {
    description: 'The body is not part of the stored request: the same key with a different body replays the original instead of 409 idempotency_conflict.',
    breaks: ['IDEM-CONFLICT'],
  },
  'idempotency-scoped-to-business': {
    description: 'Idempotency keys are stored per business and environment instead of per API key.',
    breaks: ['IDEM-SCOPED-TO-API-KEY'],
  },
  'idempotency-no-in-progress-guard': {
    description: 'The key is recorded only when the request has finished: concurrent identical requests are all processed.',
    breaks: ['IDEM-IN-PROGRESS'],
  },
  'replay-rechecks-external-id': {
    description: 'A replay re-runs the external_id uniqueness check and answers 409 external_id_conflict instead of the original result.',
    breaks: ['IDEM-REPLAY', 'IDEM-REPLAY-EXTERNAL-ID', 'IDEM-CONFLICT', 'IDEM-IN-PROGRESS'],
  },
  'external-id-not-unique': {
    description: 'The uniqueness of external_id is never checked: a second create with the same external_id succeeds.',
    breaks: ['IDEM-EXTERNAL-ID-CONFLICT'],
  },
  'external-id-unique-across-businesses': {
    description: 'external_id uniqueness is checked over every business, so another business cannot reuse a value.',
    breaks: ['IDEM-EXTERNAL-ID-SCOPE', 'IDEM-SCOPED-TO-API-KEY'],
  },
  'external-id-unique-across-environments': {
    description: 'external_id uniqueness is checked over Test and Live together, so the Live side cannot reuse a Test value.',
    breaks: ['IDEM-EXTERNAL-ID-SCOPE'],
  },
} satisfies Record<string, FaultDefinition>;
