/**
 * Planted faults of the isolation area (Rules 5-7, the key alone sets business and environment,
 * Test creates skip the Live checks), each a realistic bug of the reference server.
 */

export const ISOLATION_FAULTS = {
  'environment-not-isolated':
    'Looking a Payment up by id checks the business but not the environment: Test and Live keys read and cancel each other\'s Payments.',
  'list-external-id-ignores-environment':
    'The external_id filter of listPayments looks the value up in Test and Live alike.',
  'other-business-visible':
    'Looking a Payment up by id checks the environment but not the business: another business reads, cancels and completes it.',
  'payment-not-found-generic-404':
    'A missing Payment falls through to the generic 404 not_found instead of payment_not_found.',
  'live-key-test-helpers-payment-not-found':
    'A Live key on /test_helpers is refused with 404 payment_not_found (the route shows it exists) instead of not_found.',
  'live-checks-in-test-mode':
    'The Live readiness checks also run for Test creates, which then answer the Live-only 409s.',
  'x-business-id-honoured':
    'A legacy X-Business-ID header overrides the business of the API key.',
} as const satisfies Readonly<Record<string, string>>;
