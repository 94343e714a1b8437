/**
 * Planted faults of the webhooks area (spec, Events; Event envelope; Limits), each a realistic bug in
 * reference/webhooks/ (signing, headers, routing, acknowledgement, retries), in the operations that
 * emit events (payment-actions.ts, create-payment.ts) or in the control API (control.ts).
 */

export const WEBHOOKS_FAULTS = {
  // ── signing and headers ──
  'signature-over-reserialised-json':
    'The signature is computed over a re-serialisation of the event with non-ASCII characters escaped (\\uXXXX, as Python\'s json.dumps does), not over the bytes sent.',
  'signed-with-first-endpoint-secret':
    'The signing secret is looked up per business, not per endpoint: every endpoint\'s deliveries are signed with the business\'s first endpoint\'s secret.',
  'signature-clock-behind':
    'The signature timestamp t comes from a worker clock that runs 10 minutes behind (not NTP-synced).',
  'signature-clock-301s-behind':
    'The signature timestamp t comes from a clock 301 s behind: one second past the 5-minute tolerance, so receivers reject every delivery.',
  'user-agent-missing':
    'Deliveries carry no User-Agent header (the HTTP client\'s default is kept).',
  'event-id-header-is-attempt-id':
    'Service-Event-ID carries the id of the delivery attempt (whatt_…) instead of the event id.',
  'deliveries-form-content-type':
    'Deliveries declare Content-Type application/x-www-form-urlencoded (the HTTP client\'s default for a POST body).',
  // ── envelope and the operations' events ──
  'event-created-at-epoch-seconds':
    'The event\'s created_at is serialised as a Unix time number, not a date-time string.',
  'event-livemode-hardcoded-false':
    'Every event says livemode false, Live Payments\' included.',
  'created-event-without-checkout-url':
    'payment.created is rendered before the hosted checkout session is attached: its data.object has no checkout_url.',
  'event-snapshot-before-transition':
    'The event of a transition snapshots the Payment before the move is applied (PENDING in payment.paid, payment.cancelled; PAID in payment.reversed).',
  'succeed-emits-payment-succeeded':
    'The succeed helper emits the type payment.succeeded instead of payment.paid.',
  'helper-cancel-emits-no-event':
    'The cancel helper writes CANCELLED through a path that skips the outbox: no payment.cancelled event.',
  'endpoint-test-sent-to-live-endpoints':
    'Send test event accepts a Live endpoint (202) and delivers endpoint.test to it.',
  // ── routing ──
  'events-routed-across-environments':
    'Routing ignores the environment: a Payment\'s events go to the business\'s Test and Live endpoints alike.',
  'subscription-filter-ignored':
    'Routing ignores the endpoints\' chosen event types: every endpoint gets every event.',
  'disabled-endpoint-still-delivered':
    'Routing ignores the enabled flag: a disabled endpoint still receives events.',
  'first-subscriber-only':
    'Routing picks the first matching endpoint (find instead of filter): other subscribed endpoints get nothing.',
  // ── acknowledgement and retries ──
  'webhook-timeout-5s':
    'Deliveries time out after 5 s instead of the spec\'s 10 s, so a 2xx sent after 8 s is never seen and the event is retried.',
  'only-200-acknowledges':
    'Only 200 counts as an acknowledgement: a 201, 202, 204 … answer is treated as a failure and retried.',
  'empty-204-counted-as-failure':
    'The receiver\'s answer body is parsed as JSON; an empty 204 fails the parse and the attempt counts as a failure, so it is retried on the schedule.',
  'client-errors-treated-as-ack':
    'A 4xx answer is taken as a final answer ("the receiver rejected it") and never retried.',
  'redirects-followed':
    'The HTTP client follows redirects (as fetch does by default) and takes the redirect target\'s answer as the attempt\'s.',
  'retry-gets-new-event-id':
    'A retry is enqueued as a new event: a fresh evt_ id in the body and Service-Event-ID on every attempt.',
  'retry-body-regenerated':
    'Each attempt re-renders data.object from the Payment\'s current state instead of the snapshot taken at the event.',
  'retry-gaps-shifted':
    'The retry schedule is read one step behind: two immediate retries, then 30 s where 2 min is due, and so on.',
  'retry-backoff-doubled':
    'A generic exponential backoff multiplier is applied on top of the schedule: every gap is doubled.',
  'seven-attempts':
    'Off by one the other way in the attempt limit: a failing event is attempted 7 times, the 6 h retry never goes out.',
  'nine-attempts':
    'Off by one in the attempt limit: a failing event is attempted 9 times.',
  // ── nothing is ever delivered (the suite uses it to prove no rule passes vacuously) ──
  'webhooks-never-sent':
    'Events are written to the outbox but no worker ever drains it: no webhook is ever delivered.',
} as const satisfies Readonly<Record<string, string>>;
