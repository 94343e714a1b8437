/**
 * What must catch each planted fault of reference/faults/webhooks.ts: the catalogue rules that must fail (or warn, for a SHOULD rule).
 */
import type { WEBHOOKS_FAULTS } from '../../reference/faults/webhooks.ts';
import type { ExpectationsOf } from './expectation.ts';

export const WEBHOOKS_EXPECTED = {
  // ── signing and headers ──
  'signature-over-reserialised-json': { breaks: ['HOOK-SIGNATURE-VALID'] },
  'signed-with-first-endpoint-secret': { breaks: ['HOOK-SIGNATURE-OWN-SECRET', 'HOOK-SIGNATURE-VALID'] },
  'signature-clock-behind': { breaks: ['HOOK-TIMESTAMP-FRESH'] },
  'signature-clock-301s-behind': { breaks: ['HOOK-TIMESTAMP-FRESH'] },
  'user-agent-missing': { breaks: ['HOOK-HEADERS'] },
  'event-id-header-is-attempt-id': { breaks: ['HOOK-HEADERS'] },
  'deliveries-form-content-type': { breaks: ['HOOK-JSON-CONTENT-TYPE'] },
  // ── envelope and the operations' events ──
  'event-created-at-epoch-seconds': { breaks: ['HOOK-ENVELOPE'] },
  'event-livemode-hardcoded-false': { breaks: ['HOOK-ENVELOPE', 'HOOK-EVENT-CREATED', 'HOOK-EVENT-CANCELLED'] },
  'created-event-without-checkout-url': { breaks: ['HOOK-EVENT-CREATED'] },
  'event-snapshot-before-transition': { breaks: ['HOOK-EVENT-CANCELLED', 'HOOK-EVENT-PAID', 'HOOK-EVENT-HELPER-CANCELLED', 'HOOK-EVENT-REVERSED'] },
  'succeed-emits-payment-succeeded': { breaks: ['HOOK-EVENT-PAID', 'HOOK-AT-LEAST-ONCE'] },
  'helper-cancel-emits-no-event': { breaks: ['HOOK-EVENT-HELPER-CANCELLED', 'HOOK-AT-LEAST-ONCE'] },
  'endpoint-test-sent-to-live-endpoints': { breaks: ['HOOK-ENDPOINT-TEST'] },
  // ── routing ──
  'events-routed-across-environments': { breaks: ['HOOK-ROUTE-ENVIRONMENT'] },
  'subscription-filter-ignored': { breaks: ['HOOK-ROUTE-SUBSCRIPTION'] },
  'disabled-endpoint-still-delivered': { breaks: ['HOOK-ROUTE-DISABLED'] },
  'first-subscriber-only': { breaks: ['HOOK-AT-LEAST-ONCE'] },
  // ── acknowledgement and retries ──
  'webhook-timeout-5s': { breaks: ['HOOK-NO-RETRY-AFTER-ACK'] },
  'only-200-acknowledges': { breaks: ['HOOK-NO-RETRY-AFTER-ACK'] },
  'empty-204-counted-as-failure': { breaks: ['HOOK-NO-RETRY-AFTER-ACK'] },
  'client-errors-treated-as-ack': { breaks: ['HOOK-RETRY-ON-FAILURE'] },
  'redirects-followed': { breaks: ['HOOK-REDIRECT-NOT-FOLLOWED', 'HOOK-RETRY-ON-FAILURE'] },
  'retry-gets-new-event-id': { breaks: ['HOOK-RETRY-SAME-BODY'] },
  'retry-body-regenerated': { breaks: ['HOOK-RETRY-SAME-BODY'] },
  'retry-gaps-shifted': { breaks: ['HOOK-RETRY-SCHEDULE'] },
  'retry-backoff-doubled': { breaks: ['HOOK-RETRY-PUNCTUAL'] },
  'seven-attempts': { breaks: ['HOOK-RETRY-SCHEDULE'] },
  'nine-attempts': { breaks: ['HOOK-MAX-ATTEMPTS'] },
  // ── negative control for vacuous passes: no HOOK-* rule may pass against it ──
  'webhooks-never-sent': { breaks: ['HOOK-EVENT-CREATED', 'HOOK-EVENT-PAID', 'HOOK-AT-LEAST-ONCE'] },
} as const satisfies ExpectationsOf<typeof WEBHOOKS_FAULTS>;
