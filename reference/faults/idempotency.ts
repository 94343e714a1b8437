/**
 * Planted faults of the idempotency area (Rules 1-4 of createPayment, Idempotency-Key scope),
 * each a realistic bug in reference/create-payment.ts.
 */

export const IDEMPOTENCY_FAULTS = {
  'idempotency-key-ignored':
    'The Idempotency-Key header is never used: every request is processed anew.',
  'idempotency-ignores-body':
    'The body is not part of the stored request: the same key with a different body replays the original instead of 409 idempotency_conflict.',
  'idempotency-scoped-to-business':
    'Idempotency keys are stored per business and environment instead of per API key.',
  'idempotency-no-in-progress-guard':
    'The key is recorded only when the request has finished: concurrent identical requests are all processed.',
  'replay-rechecks-external-id':
    'A replay re-runs the external_id uniqueness check and answers 409 external_id_conflict instead of the original result.',
  'external-id-not-unique':
    'The uniqueness of external_id is never checked: a second create with the same external_id succeeds.',
  'external-id-unique-across-businesses':
    'external_id uniqueness is checked over every business, so another business cannot reuse a value.',
  'external-id-unique-across-environments':
    'external_id uniqueness is checked over Test and Live together, so the Live side cannot reuse a Test value.',
  'idempotency-key-case-folded':
    'Idempotency keys are compared case-insensitively: a key differing only in letter case replays or conflicts with the other key\'s request.',
  'external-id-case-folded':
    'external_id uniqueness is checked case-insensitively: an external_id differing only in letter case answers 409 external_id_conflict.',
  'external-id-compared-trimmed':
    'external_id uniqueness compares trimmed values: an external_id with a trailing space answers 409 external_id_conflict against the one without.',
} as const satisfies Readonly<Record<string, string>>;
