/**
 * Planted faults of the isolation area (Rules 5-7, the key alone sets business and environment,
 * Test creates skip the Live checks), each a realistic bug of the reference server, with the
 * rule ids it must make fail.
 */
import type { FaultDefinition } from '../faults.ts';

export const ISOLATION_FAULTS = {
  'environment-not-isolated': {
    description: 'Looking a Payment up by id checks the business but not the environment: Test and Live keys read and cancel each other\'s Payments.',
    breaks: ['ISO-TEST-LIVE-GET', 'ISO-TEST-LIVE-WRITE'],
  },
  'list-external-id-ignores-environment': {
    description: 'The external_id filter of listPayments looks the value up in Test and Live alike.',
    breaks: ['ISO-TEST-LIVE-LIST'],
  },
  'other-business-visible': {
    description: 'Looking a Payment up by id checks the environment but not the business: another business reads, cancels and completes it.',
    breaks: ['ISO-OTHER-BUSINESS', 'ISO-KEY-ALONE'],
  },
  'payment-not-found-generic-404': {
    description: 'A missing Payment falls through to the generic 404 not_found instead of payment_not_found.',
    breaks: ['ISO-UNKNOWN-ID', 'ISO-OTHER-BUSINESS', 'ISO-TEST-LIVE-GET', 'ISO-TEST-LIVE-WRITE', 'ISO-KEY-ALONE'],
  },
  'live-key-test-helpers-payment-not-found': {
    description: 'A Live key on /test_helpers is refused with 404 payment_not_found (the route shows it exists) instead of not_found.',
    breaks: ['ISO-LIVE-KEY-TEST-HELPERS'],
  },
  'live-checks-in-test-mode': {
    description: 'The Live readiness checks also run for Test creates, which then answer the Live-only 409s.',
    breaks: ['ISO-TEST-NO-LIVE-409'],
  },
  'x-business-id-honoured': {
    description: 'A legacy X-Business-ID header overrides the business of the API key.',
    breaks: ['ISO-KEY-ALONE'],
  },
} satisfies Record<string, FaultDefinition>;
