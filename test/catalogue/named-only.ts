/**
 * The normative obligations no planted fault proves yet (catalogue/obligations.ts): each is named
 * by a rule that can fail, but no fault that violates it alone shows that rule catches its
 * violation. A ratchet: test/catalogue/obligations.test.ts fails on an obligation named only that
 * is not listed here (a new clause or split needs its fault) and on one listed here that is now
 * proved (take it off). The list only shrinks.
 */
export const NAMED_ONLY: readonly string[] = [
  'overview.offline-payments-404',
  'create.field.description#accepted',
  'create.field.merchant_reference#accepted',
  'create.field.metadata#accepted',
  'event.types',
  'endpoints.op.createPayment#route',
  'list.param.starting_after#complete',
  'statuses.listPayments',
  'rules.idempotency.same-key-same-body#no-duplicate',
  'rules.payment-not-found#unknown-id',
  'receiver-op.post-to-subscribed-endpoints#post-json',
  'auth.header-form',
  'auth.value-is-key',
  'auth.key-determines-business-and-environment#environment',
  'auth.invalid-key-401#malformed',
  'auth.test-helpers-test-keys-only',
  'errors.code-open',
  'errors.code.internal_error',
  'versioning.tolerate-unknown-strict-filters',
];
