/**
 * Planted faults of the webhooks area (spec, Events; Event envelope; Limits), each a realistic bug in
 * reference/webhooks/ (signing, headers, routing, acknowledgement, retries), in the operations that
 * emit events (payment-actions.ts, create-payment.ts) or in the control API (control.ts), with the
 * rule ids it must make fail.
 */
import type { FaultDefinition } from '../faults.ts';

export const WEBHOOKS_FAULTS = {
  // ── signing and headers ──
  'signature-over-reserialised-json': {
    description: 'The signature is computed over a re-serialisation of the event with non-ASCII characters escaped (\\uXXXX, as Python\'s json.dumps does), not over the bytes sent.',
    breaks: ['HOOK-SIGNATURE-VALID'],
  },
  'signed-with-first-endpoint-secret': {
    description: 'The signing secret is looked up per business, not per endpoint: every endpoint\'s deliveries are signed with the business\'s first endpoint\'s secret.',
    breaks: ['HOOK-SIGNATURE-OWN-SECRET', 'HOOK-SIGNATURE-VALID'],
  },
  'signature-clock-behind': {
    description: 'The signature timestamp t comes from a worker clock that runs 10 minutes behind (not NTP-synced).',
    breaks: ['HOOK-TIMESTAMP-FRESH'],
  },
  'signature-clock-301s-behind': {
    description: 'The signature timestamp t comes from a clock 301 s behind: one second past the 5-minute tolerance, so receivers reject every delivery.',
    breaks: ['HOOK-TIMESTAMP-FRESH'],
  },
  'user-agent-missing': {
    description: 'Deliveries carry no User-Agent header (the HTTP client\'s default is kept).',
    breaks: ['HOOK-HEADERS'],
  },
  'event-id-header-is-attempt-id': {
    description: 'Service-Event-ID carries the id of the delivery attempt (whatt_…) instead of the event id.',
    breaks: ['HOOK-HEADERS'],
  },
  'deliveries-form-content-type': {
    description: 'Deliveries declare Content-Type application/x-www-form-urlencoded (the HTTP client\'s default for a POST body).',
    breaks: ['HOOK-JSON-CONTENT-TYPE'],
  },
  // ── envelope and the operations' events ──
  'event-created-at-epoch-seconds': {
    description: 'The event\'s created_at is serialised as a Unix time number, not a date-time string.',
    breaks: ['HOOK-ENVELOPE'],
  },
  'event-livemode-hardcoded-false': {
    description: 'Every event says livemode false, Live Payments\' included.',
    breaks: ['HOOK-ENVELOPE', 'HOOK-EVENT-CREATED', 'HOOK-EVENT-CANCELLED'],
  },
  'created-event-without-checkout-url': {
    description: 'payment.created is rendered before the hosted checkout session is attached: its data.object has no checkout_url.',
    breaks: ['HOOK-EVENT-CREATED'],
  },
  'event-snapshot-before-transition': {
    description: 'The event of a transition snapshots the Payment before the move is applied (PENDING in payment.paid, payment.cancelled; PAID in payment.reversed).',
    breaks: ['HOOK-EVENT-CANCELLED', 'HOOK-EVENT-PAID', 'HOOK-EVENT-HELPER-CANCELLED', 'HOOK-EVENT-REVERSED'],
  },
  'succeed-emits-payment-succeeded': {
    description: 'The succeed helper emits the type payment.succeeded instead of payment.paid.',
    breaks: ['HOOK-EVENT-PAID', 'HOOK-AT-LEAST-ONCE'],
  },
  'helper-cancel-emits-no-event': {
    description: 'The cancel helper writes CANCELLED through a path that skips the outbox: no payment.cancelled event.',
    breaks: ['HOOK-EVENT-HELPER-CANCELLED', 'HOOK-AT-LEAST-ONCE'],
  },
  'endpoint-test-sent-to-live-endpoints': {
    description: 'Send test event accepts a Live endpoint (202) and delivers endpoint.test to it.',
    breaks: ['HOOK-ENDPOINT-TEST'],
  },
  // ── routing ──
  'events-routed-across-environments': {
    description: 'Routing ignores the environment: a Payment\'s events go to the business\'s Test and Live endpoints alike.',
    breaks: ['HOOK-ROUTE-ENVIRONMENT'],
  },
  'subscription-filter-ignored': {
    description: 'Routing ignores the endpoints\' chosen event types: every endpoint gets every event.',
    breaks: ['HOOK-ROUTE-SUBSCRIPTION'],
  },
  'disabled-endpoint-still-delivered': {
    description: 'Routing ignores the enabled flag: a disabled endpoint still receives events.',
    breaks: ['HOOK-ROUTE-DISABLED'],
  },
  'first-subscriber-only': {
    description: 'Routing picks the first matching endpoint (find instead of filter): other subscribed endpoints get nothing.',
    breaks: ['HOOK-AT-LEAST-ONCE'],
  },
  // ── acknowledgement and retries ──
  'webhook-timeout-5s': {
    description: 'Deliveries time out after 5 s instead of the spec\'s 10 s, so a 2xx sent after 8 s is never seen and the event is retried.',
    breaks: ['HOOK-NO-RETRY-AFTER-ACK'],
  },
  'only-200-acknowledges': {
    description: 'Only 200 counts as an acknowledgement: a 201, 202, 204 … answer is treated as a failure and retried.',
    breaks: ['HOOK-NO-RETRY-AFTER-ACK'],
  },
  'empty-204-counted-as-failure': {
    description: 'The receiver\'s answer body is parsed as JSON; an empty 204 fails the parse and the attempt counts as a failure, so it is retried on the schedule.',
    breaks: ['HOOK-NO-RETRY-AFTER-ACK'],
  },
  'client-errors-treated-as-ack': {
    description: 'A 4xx answer is taken as a final answer ("the receiver rejected it") and never retried.',
    breaks: ['HOOK-RETRY-ON-FAILURE'],
  },
  'redirects-followed': {
    description: 'The HTTP client follows redirects (as fetch does by default) and takes the redirect target\'s answer as the attempt\'s.',
    breaks: ['HOOK-REDIRECT-NOT-FOLLOWED', 'HOOK-RETRY-ON-FAILURE'],
  },
  'retry-gets-new-event-id': {
    description: 'A retry is enqueued as a new event: a fresh evt_ id in the body and Service-Event-ID on every attempt.',
    breaks: ['HOOK-RETRY-SAME-BODY'],
  },
  'retry-body-regenerated': {
    description: 'Each attempt re-renders data.object from the Payment\'s current state instead of the snapshot taken at the event.',
    breaks: ['HOOK-RETRY-SAME-BODY'],
  },
  'retry-gaps-shifted': {
    description: 'The retry schedule is read one step behind: two immediate retries, then 30 s where 2 min is due, and so on.',
    breaks: ['HOOK-RETRY-SCHEDULE'],
  },
  'retry-backoff-doubled': {
    description: 'A generic exponential backoff multiplier is applied on top of the schedule: every gap is doubled.',
    breaks: ['HOOK-RETRY-PUNCTUAL'],
  },
  'seven-attempts': {
    description: 'Off by one the other way in the attempt limit: a failing event is attempted 7 times, the 6 h retry never goes out.',
    breaks: ['HOOK-RETRY-SCHEDULE'],
  },
  'nine-attempts': {
    description: 'Off by one in the attempt limit: a failing event is attempted 9 times.',
    breaks: ['HOOK-MAX-ATTEMPTS'],
  },
  // ── negative control for vacuous passes: no HOOK-* rule may pass against it ──
  'webhooks-never-sent': {
    description: 'Events are written to the outbox but no worker ever drains it: no webhook is ever delivered.',
    breaks: ['HOOK-EVENT-CREATED', 'HOOK-EVENT-PAID', 'HOOK-AT-LEAST-ONCE'],
  },
} satisfies Record<string, FaultDefinition>;
