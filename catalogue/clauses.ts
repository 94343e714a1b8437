/**
 * The spec's statements as clauses: every sentence of its prose and every row of its tables
 * (fields, enumerations, transitions, operations, parameters, statuses, rules, delivery and
 * signature items, errors, limits), each with a stable, meaningful id and the spec's own words.
 *
 * `quote` is verbatim text of the spec (docs/spec/hosted-payment-service-v1.md, this tool's
 * copy): a sentence, a table row, or part of a sentence when one sentence states two things
 * (`signature.constant-time`). test/catalogue/clauses.test.ts fails when a quote is not in the
 * spec and when a sentence or row of the spec is quoted by no clause, so an edit of the spec
 * is noticed.
 *
 * A clause is normative unless it says otherwise. Normative: the rules that check it are those
 * citing it in `clauses` of its entry in catalogue/rules.ts; with no rule that can run, `untestable` says why
 * nothing on the wire can show it. Informative (`informative`): it describes, points elsewhere
 * or leaves a point open ("not shown"); OBSERVE rules may still cite it. Ids are never
 * renumbered or reused.
 */

export interface ClauseDef {
  /** Stable id: `<part>.<meaning>`, e.g. `payment.field.amount`, `rules.idempotency.same-key-same-body`. */
  readonly id: string;
  /** The spec heading the clause sits under (`Section › Subsection`). */
  readonly section: string;
  /** The spec's words, verbatim: a sentence, a table row, or part of one sentence. */
  readonly quote: string;
  /** A normative clause no request or delivery can show: why. */
  readonly untestable?: string;
  /** Not a requirement on anyone: why (describes, points elsewhere, leaves a point open). */
  readonly informative?: string;
}

export const CLAUSES = [
  // ── Introduction ──
  {
    id: 'overview.scope',
    section: "Introduction",
    quote: "This document covers the whole service: hosted checkout Payments, the test-mode helper operations, webhook events, errors, " +
      "limits and versioning.",
    informative: "Says what the document covers; nothing for a target to do.",
  },
  {
    id: 'overview.only-document',
    section: "Introduction",
    quote: "It is the only document.",
    informative: "Says where the contract lives; nothing for a target to do.",
  },
  // ── What the service does ──
  {
    id: 'overview.hosted-payment-api',
    section: "What the service does",
    quote: "The service is a hosted-payment API.",
    informative: "Names the kind of service; its behaviour is in the clauses that follow.",
  },
  {
    id: 'overview.create-returns-checkout-url',
    section: "What the service does",
    quote: "A merchant server creates a Payment and receives a `checkout_url`.",
  },
  {
    id: 'overview.customer-flow',
    section: "What the service does",
    quote: "The merchant sends the customer to that URL to pay, then learns the outcome by reading the Payment or by receiving signed " +
      "webhook events.",
    informative: "Describes the merchant's and customer's journey; the reads and events it names are their own clauses.",
  },
  {
    id: 'overview.hosted-only',
    section: "What the service does",
    quote: "`/v1/payments` creates and reads hosted checkout Payments only.",
  },
  {
    id: 'overview.offline-payments-404',
    section: "What the service does",
    quote: "Manually recorded or offline payments are not part of v1; requests about them answer 404.",
  },
  {
    id: 'overview.external-contract-only',
    section: "What the service does",
    quote: "Only the external `/v1` contract is covered.",
    informative: "Scopes the document to /v1; the suite only ever speaks /v1.",
  },
  {
    id: 'overview.dashboard-api-out-of-scope',
    section: "What the service does",
    quote: "An internal dashboard API under `/api/v1` is out of scope.",
    informative: "Declares an API out of scope; nothing for a v1 target to do.",
  },
  { id: 'overview.environments-isolated', section: "What the service does", quote: "Two environments exist and are fully isolated:" },
  { id: 'overview.environment.live', section: "What the service does", quote: "Live (`livemode: true`): real money." },
  { id: 'overview.environment.test', section: "What the service does", quote: "Test (`livemode: false`): a sandbox." },
  {
    id: 'overview.test-touches-no-money',
    section: "What the service does",
    quote: "Test Payments never touch real money, payment accounts, the receiving bridge device or Service Credit.",
  },
  {
    id: 'overview.test-live-cannot-see-each-other',
    section: "What the service does",
    quote: "A Test key cannot see or modify Live objects, and a Live key cannot see or modify Test objects.",
  },
  {
    id: 'overview.test-checkout-by-helpers',
    section: "What the service does",
    quote: "A Test checkout is completed through the `/test_helpers` operations.",
  },
  {
    id: 'overview.live-ux-check',
    section: "What the service does",
    quote: "Live creation runs only a UX-level check: an enabled, bridge-ready receiving method exists, and the business has enough " +
      "Service Credit for the next fee.",
  },
  {
    id: 'overview.fee-reserved-at-checkout',
    section: "What the service does",
    quote: "The real fee reservation happens when the customer reaches checkout.",
    untestable: "The fee reservation happens at the hosted checkout, which the API does not expose; a Live create with credit is " +
      "checked by LIVE-READY-CREATES.",
  },
  { id: 'overview.json-over-https', section: "What the service does", quote: "The API is JSON over HTTPS." },
  {
    id: 'overview.amounts-decimal-strings',
    section: "What the service does",
    quote: "Amounts are decimal strings in BDT major units, never JSON numbers.",
  },
  {
    id: 'overview.base-address',
    section: "What the service does",
    quote: "The base address is `{base_url}`.",
    informative: "Names the placeholder of the base address (the profile's base_url).",
  },
  { id: 'overview.paths-relative', section: "What the service does", quote: "All paths below are relative to `{base_url}/v1`." },
  { id: 'overview.secret-keys-server-side', section: "What the service does", quote: "Secret keys are server-side credentials only." },
  {
    id: 'overview.secret-keys-not-in-apps',
    section: "What the service does",
    quote: "They must never be embedded in a browser, Android, iOS, React Native or Flutter client.",
  },
  {
    id: 'overview.apps-receive-checkout-url',
    section: "What the service does",
    quote: "Such clients receive only a `checkout_url` from the merchant's own backend.",
  },
  // ── Resources and their fields › Payment ──
  { id: 'payment.field.id', section: "Resources and their fields › Payment", quote: "| id | string | yes | Payment identifier |" },
  { id: 'payment.field.object', section: "Resources and their fields › Payment", quote: "| object | string | yes | always `payment` |" },
  {
    id: 'payment.field.livemode',
    section: "Resources and their fields › Payment",
    quote: "| livemode | boolean | yes | false for Test, true for Live |",
  },
  {
    id: 'payment.field.status',
    section: "Resources and their fields › Payment",
    quote: "| status | PaymentStatus | yes | see States and transitions |",
  },
  {
    id: 'payment.field.amount',
    section: "Resources and their fields › Payment",
    quote: "| amount | string | yes | decimal string, BDT major units |",
  },
  { id: 'payment.field.currency', section: "Resources and their fields › Payment", quote: "| currency | string | yes | always `BDT` |" },
  { id: 'payment.field.description', section: "Resources and their fields › Payment", quote: "| description | string or null | no | |" },
  {
    id: 'payment.field.merchant_reference',
    section: "Resources and their fields › Payment",
    quote: "| merchant_reference | string or null | no | business reference, distinct from external_id |",
  },
  {
    id: 'payment.field.external_id',
    section: "Resources and their fields › Payment",
    quote: "| external_id | string or null | no | the merchant's correlation id |",
  },
  { id: 'payment.field.metadata', section: "Resources and their fields › Payment", quote: "| metadata | Metadata | no | |" },
  {
    id: 'payment.field.allowed_methods',
    section: "Resources and their fields › Payment",
    quote: "| allowed_methods | array of PaymentMethod | no | |",
  },
  {
    id: 'payment.field.allowed_channels',
    section: "Resources and their fields › Payment",
    quote: "| allowed_channels | array of CollectionChannel | no | |",
  },
  { id: 'payment.field.return_url', section: "Resources and their fields › Payment", quote: "| return_url | string or null | no | |" },
  {
    id: 'payment.field.checkout_url',
    section: "Resources and their fields › Payment",
    quote: "| checkout_url | string or null | no | hosted checkout address to send the customer to |",
  },
  { id: 'payment.field.created_at', section: "Resources and their fields › Payment", quote: "| created_at | string, date-time | yes | |" },
  { id: 'payment.field.paid_at', section: "Resources and their fields › Payment", quote: "| paid_at | string or null, date-time | no | |" },
  {
    id: 'payment.field.cancelled_at',
    section: "Resources and their fields › Payment",
    quote: "| cancelled_at | string or null, date-time | no | |",
  },
  // ── Resources and their fields › Enumerations ──
  {
    id: 'enums.payment-status',
    section: "Resources and their fields › Enumerations",
    quote: "| PaymentStatus | PENDING, PAID, CANCELLED, REVERSED | Only statuses observable through the API. REVERSED reflects the " +
      "service's own financial record and does not imply a provider-side transfer back to the customer. |",
  },
  {
    id: 'enums.payment-method',
    section: "Resources and their fields › Enumerations",
    quote: "| PaymentMethod | BKASH, NAGAD | provider codes |",
  },
  {
    id: 'enums.collection-channel',
    section: "Resources and their fields › Enumerations",
    quote: "| CollectionChannel | SEND_MONEY, PAYMENT, CASH_IN, BANK_TRANSFER | how the customer pays: Send Money, Payment, Cash In, " +
      "Bank/Card Add Money |",
  },
  {
    id: 'enums.clients-tolerate-unknown',
    section: "Resources and their fields › Enumerations",
    quote: "Clients must tolerate unknown values of PaymentStatus, PaymentMethod and CollectionChannel when reading responses.",
  },
  { id: 'enums.request-filters-strict', section: "Resources and their fields › Enumerations", quote: "Request filters are strict." },
  // ── Resources and their fields › Metadata ──
  {
    id: 'metadata.string-map',
    section: "Resources and their fields › Metadata",
    quote: "An object with string keys and string values, supplied by the developer.",
  },
  {
    id: 'metadata.never-shown-nor-matched',
    section: "Resources and their fields › Metadata",
    quote: "It is never shown to the customer and never used for financial matching.",
    untestable: "The hosted checkout page and the financial matching are outside the API; metadata's echo is checked by " +
      "CREATE-FIELDS-ECHOED.",
  },
  {
    id: 'metadata.limits-pointer',
    section: "Resources and their fields › Metadata",
    quote: "Limits are in Limits.",
    informative: "Points to the Limits section, whose rows are clauses of their own.",
  },
  // ── Resources and their fields › CreatePaymentRequest (JSON body) ──
  {
    id: 'create.field.amount',
    section: "Resources and their fields › CreatePaymentRequest (JSON body)",
    quote: "| amount | string | yes | positive decimal string with at most two decimals, never a JSON number |",
  },
  {
    id: 'create.field.description',
    section: "Resources and their fields › CreatePaymentRequest (JSON body)",
    quote: "| description | string | no | |",
  },
  {
    id: 'create.field.merchant_reference',
    section: "Resources and their fields › CreatePaymentRequest (JSON body)",
    quote: "| merchant_reference | string | no | human/business reference |",
  },
  {
    id: 'create.field.external_id',
    section: "Resources and their fields › CreatePaymentRequest (JSON body)",
    quote: "| external_id | string | no | unique per business and per livemode when set |",
  },
  {
    id: 'create.field.return_url',
    section: "Resources and their fields › CreatePaymentRequest (JSON body)",
    quote: "| return_url | string | no | absolute https URL, or a native-app deep link scheme; `javascript:`, `data:`, `file:` and " +
      "`intent:` are always rejected; never proof of payment |",
  },
  {
    id: 'create.field.metadata',
    section: "Resources and their fields › CreatePaymentRequest (JSON body)",
    quote: "| metadata | Metadata | no | |",
  },
  {
    id: 'create.field.allowed_methods',
    section: "Resources and their fields › CreatePaymentRequest (JSON body)",
    quote: "| allowed_methods | array of PaymentMethod | no | only BKASH or NAGAD |",
  },
  {
    id: 'create.field.allowed_channels',
    section: "Resources and their fields › CreatePaymentRequest (JSON body)",
    quote: "| allowed_channels | array of CollectionChannel | no | only the four channel values |",
  },
  {
    id: 'create.field.customer_id',
    section: "Resources and their fields › CreatePaymentRequest (JSON body)",
    quote: "| customer_id | string | no | must belong to the caller's business |",
  },
  {
    id: 'create.field.order_id',
    section: "Resources and their fields › CreatePaymentRequest (JSON body)",
    quote: "| order_id | string | no | must exist for the caller's business; the payment's customer must match the order's customer; " +
      "amount must not exceed the order's remaining due; the order must not be cancelled |",
  },
  {
    id: 'create.context-items-rejected',
    section: "Resources and their fields › CreatePaymentRequest (JSON body)",
    quote: "`context_items` are not accepted and cause a 400 `context_items_not_accepted`.",
  },
  {
    id: 'create.defaults-not-shown',
    section: "Resources and their fields › CreatePaymentRequest (JSON body)",
    quote: "Defaults when allowed_methods or allowed_channels is omitted: not shown.",
    informative: "Not shown: the defaults are recorded (CREATE-DEFAULT-METHODS-CHANNELS), never judged.",
  },
  // ── Resources and their fields › PaymentList ──
  { id: 'list.field.object', section: "Resources and their fields › PaymentList", quote: "| object | string, always `list` | yes |" },
  { id: 'list.field.data', section: "Resources and their fields › PaymentList", quote: "| data | array of Payment | yes |" },
  { id: 'list.field.has_more', section: "Resources and their fields › PaymentList", quote: "| has_more | boolean | yes |" },
  { id: 'list.field.next_cursor', section: "Resources and their fields › PaymentList", quote: "| next_cursor | string or null | no |" },
  // ── Resources and their fields › Event (webhook envelope) ──
  {
    id: 'event.field.id',
    section: "Resources and their fields › Event (webhook envelope)",
    quote: "| id | string, `evt_` prefix | yes | generated once per logical event and reused on every retry |",
  },
  {
    id: 'event.field.object',
    section: "Resources and their fields › Event (webhook envelope)",
    quote: "| object | string, always `event` | yes | |",
  },
  {
    id: 'event.field.api_version',
    section: "Resources and their fields › Event (webhook envelope)",
    quote: "| api_version | string, always `v1` | yes | |",
  },
  {
    id: 'event.field.type',
    section: "Resources and their fields › Event (webhook envelope)",
    quote: "| type | WebhookEventType | yes | |",
  },
  { id: 'event.field.livemode', section: "Resources and their fields › Event (webhook envelope)", quote: "| livemode | boolean | yes | |" },
  {
    id: 'event.field.created_at',
    section: "Resources and their fields › Event (webhook envelope)",
    quote: "| created_at | string, date-time | yes | |",
  },
  {
    id: 'event.field.data',
    section: "Resources and their fields › Event (webhook envelope)",
    quote: "| data | object with `object` | yes | for `payment.*` events `data.object` is a Payment |",
  },
  {
    id: 'event.types',
    section: "Resources and their fields › Event (webhook envelope)",
    quote: "WebhookEventType values: `payment.created`, `payment.paid`, `payment.cancelled`, `payment.reversed`, `endpoint.test`.",
  },
  {
    id: 'event.data-object-is-get',
    section: "Resources and their fields › Event (webhook envelope)",
    quote: "`data.object` of a payment event is exactly what `GET /payments/{id}` returns at the moment of the event.",
  },
  {
    id: 'event.snapshot-never-regenerated',
    section: "Resources and their fields › Event (webhook envelope)",
    quote: "It is snapshotted at event creation and never regenerated for retries.",
  },
  // ── Resources and their fields › Error ──
  {
    id: 'error.shape',
    section: "Resources and their fields › Error",
    quote: "`{ error: { code: string, message: string, param?: string, request_id: string } }`.",
  },
  {
    id: 'error.fields-always-present',
    section: "Resources and their fields › Error",
    quote: "`code`, `message` and `request_id` are always present.",
  },
  {
    id: 'error.param-optional',
    section: "Resources and their fields › Error",
    quote: "`param` is optional and names the offending parameter.",
  },
  // ── States and transitions ──
  { id: 'states.list', section: "States and transitions", quote: "States: PENDING, PAID, CANCELLED, REVERSED." },
  {
    id: 'states.create-pending',
    section: "States and transitions",
    quote: "| (none) | POST /payments | request valid | PENDING | event `payment.created` |",
  },
  {
    id: 'states.cancel',
    section: "States and transitions",
    quote: "| PENDING | POST /payments/{id}/cancel | status is PENDING | CANCELLED | any active checkout attempt is cancelled, its " +
      "Service Credit fee reservation is released atomically, `cancelled_at` is set, event `payment.cancelled` |",
  },
  {
    id: 'states.helper-succeed',
    section: "States and transitions",
    quote: "| PENDING | POST /test_helpers/payments/{id}/succeed | Test key, `livemode: false` Payment | PAID | no real money, SMS, " +
      "bridge or Service Credit involved; event `payment.paid` to Test endpoints |",
  },
  {
    id: 'states.helper-cancel',
    section: "States and transitions",
    quote: "| PENDING | POST /test_helpers/payments/{id}/cancel | Test key, `livemode: false` Payment | CANCELLED | event " +
      "`payment.cancelled` to Test endpoints |",
  },
  {
    id: 'states.reversed',
    section: "States and transitions",
    quote: "| PAID | reversal in the service's records | | REVERSED | event `payment.reversed`; no automatic provider refund |",
  },
  {
    id: 'states.illegal-409',
    section: "States and transitions",
    quote: "A cancel or simulate operation on a Payment that is not PENDING answers 409 `invalid_transition`.",
  },
  {
    id: 'states.live-triggers-not-shown',
    section: "States and transitions",
    quote: "The trigger of the Live PENDING to PAID move and the trigger of the PAID to REVERSED move: not shown.",
    informative: "Not shown: no API operation moves a Live Payment to PAID or any Payment to REVERSED.",
  },
  // ── Endpoints ──
  { id: 'endpoints.paths-relative', section: "Endpoints", quote: "All paths are relative to `{base_url}/v1`." },
  {
    id: 'endpoints.json-content-type',
    section: "Endpoints",
    quote: "Requests with a body use `Content-Type: application/json`.",
    informative: "Describes the requests a client sends; how a service answers another Content-Type is not stated and is recorded " +
      "(CREATE-CONTENT-TYPE).",
  },
  { id: 'endpoints.bearer-required', section: "Endpoints", quote: "Every operation requires `Authorization: Bearer <API_KEY>`." },
  {
    id: 'endpoints.op.createPayment',
    section: "Endpoints",
    quote: "| createPayment | POST /payments | payments:write | header `Idempotency-Key` (optional, recommended); body " +
      "CreatePaymentRequest | 201 Payment (status PENDING, with `checkout_url`) |",
  },
  {
    id: 'endpoints.op.listPayments',
    section: "Endpoints",
    quote: "| listPayments | GET /payments | payments:read | query parameters below | 200 PaymentList |",
  },
  {
    id: 'endpoints.op.getPayment',
    section: "Endpoints",
    quote: "| getPayment | GET /payments/{id} | payments:read | path `id` (string) | 200 Payment |",
  },
  {
    id: 'endpoints.op.cancelPayment',
    section: "Endpoints",
    quote: "| cancelPayment | POST /payments/{id}/cancel | payments:write | path `id`; no body | 200 Payment (CANCELLED) |",
  },
  {
    id: 'endpoints.op.simulatePaymentSucceeded',
    section: "Endpoints",
    quote: "| simulatePaymentSucceeded | POST /test_helpers/payments/{id}/succeed | payments:write | path `id`; Test key only | 200 " +
      "Payment (PAID) |",
  },
  {
    id: 'endpoints.op.simulatePaymentCancelled',
    section: "Endpoints",
    quote: "| simulatePaymentCancelled | POST /test_helpers/payments/{id}/cancel | payments:write | path `id`; Test key only | 200 " +
      "Payment (CANCELLED) |",
  },
  // ── Endpoints › listPayments query parameters ──
  { id: 'list.param.status', section: "Endpoints › listPayments query parameters", quote: "| status | PaymentStatus | filter; strict |" },
  { id: 'list.param.external_id', section: "Endpoints › listPayments query parameters", quote: "| external_id | string | filter |" },
  {
    id: 'list.param.created_from',
    section: "Endpoints › listPayments query parameters",
    quote: "| created_from | string, date-time | filter |",
  },
  {
    id: 'list.param.created_to',
    section: "Endpoints › listPayments query parameters",
    quote: "| created_to | string, date-time | filter |",
  },
  { id: 'list.param.limit', section: "Endpoints › listPayments query parameters", quote: "| limit | integer | 1 to 100, default 20 |" },
  {
    id: 'list.param.starting_after',
    section: "Endpoints › listPayments query parameters",
    quote: "| starting_after | string | a Payment id; returns results immediately after it |",
  },
  {
    id: 'list.order-not-shown',
    section: "Endpoints › listPayments query parameters",
    quote: "Sort order of the list and the relation of `next_cursor` to `starting_after`: not shown.",
    informative: "Not shown: the order and the cursor's relation are recorded, never judged.",
  },
  // ── Endpoints › Error statuses per operation ──
  {
    id: 'statuses.createPayment',
    section: "Endpoints › Error statuses per operation",
    quote: "| createPayment | 400, 401, 403, 409, 429 (plus 201) |",
  },
  { id: 'statuses.listPayments', section: "Endpoints › Error statuses per operation", quote: "| listPayments | 401, 403, 429 |" },
  { id: 'statuses.getPayment', section: "Endpoints › Error statuses per operation", quote: "| getPayment | 401, 403, 404, 429 |" },
  {
    id: 'statuses.payment-actions',
    section: "Endpoints › Error statuses per operation",
    quote: "| cancelPayment, simulatePaymentSucceeded, simulatePaymentCancelled | 401, 403, 404, 409, 429 |",
  },
  // ── Endpoints › Rules ──
  {
    id: 'rules.idempotency.same-key-same-body',
    section: "Endpoints › Rules",
    quote: "createPayment with the same `Idempotency-Key` and an identical body returns the original result and creates no duplicate.",
  },
  {
    id: 'rules.idempotency.same-key-different-body',
    section: "Endpoints › Rules",
    quote: "createPayment with the same key and a different body answers 409 `idempotency_conflict`.",
  },
  {
    id: 'rules.idempotency.in-progress',
    section: "Endpoints › Rules",
    quote: "createPayment while a request with that key is still processing answers 409 `idempotency_in_progress`.",
  },
  {
    id: 'rules.external-id-conflict',
    section: "Endpoints › Rules",
    quote: "createPayment with an `external_id` already used in the same business and environment answers 409 `external_id_conflict`.",
  },
  {
    id: 'rules.payment-not-found',
    section: "Endpoints › Rules",
    quote: "getPayment, cancelPayment and the test helpers answer 404 `payment_not_found` when the id does not exist for the key's " +
      "business and environment, including a Payment of another business.",
  },
  {
    id: 'rules.live-key-test-helpers-404',
    section: "Endpoints › Rules",
    quote: "A live secret key calling a `/test_helpers` path answers 404, as if the route did not exist.",
  },
  {
    id: 'rules.test-live-never-see-each-other',
    section: "Endpoints › Rules",
    quote: "A Test key never sees Live Payments and a Live key never sees Test Payments.",
  },
  {
    id: 'rules.unknown-route-wrong-method',
    section: "Endpoints › Rules",
    quote: "Unknown routes answer 404 `not_found`; a wrong method on a route answers 405 `method_not_allowed`.",
  },
  // ── Endpoints › Receiver operation (implemented by the merchant) ──
  {
    id: 'receiver-op.post-to-subscribed-endpoints',
    section: "Endpoints › Receiver operation (implemented by the merchant)",
    quote: "The service sends POST requests with an Event body (JSON) to each enabled endpoint subscribed to the event type, in the " +
      "same environment.",
  },
  {
    id: 'receiver-op.any-2xx-acknowledges',
    section: "Endpoints › Receiver operation (implemented by the merchant)",
    quote: "Any 2xx acknowledges.",
  },
  {
    id: 'receiver-op.details-pointer',
    section: "Endpoints › Receiver operation (implemented by the merchant)",
    quote: "Details are in Events.",
    informative: "Points to the Events section, whose statements are clauses of their own.",
  },
  {
    id: 'receiver-op.endpoints-in-dashboard',
    section: "Endpoints › Receiver operation (implemented by the merchant)",
    quote: "Webhook endpoints are registered in the dashboard; no API operation for that is offered.",
    informative: "Says no API operation registers endpoints; the profile declares them instead.",
  },
  // ── Authentication ──
  { id: 'auth.scheme-bearer', section: "Authentication", quote: "Scheme: HTTP bearer." },
  { id: 'auth.header-form', section: "Authentication", quote: "Header `Authorization: Bearer <API_KEY>`." },
  {
    id: 'auth.key-prefixes',
    section: "Authentication",
    quote: "Key kinds: a Live secret key starts with `pt_live_sk_`; a Test secret key starts with `pt_test_sk_`.",
  },
  { id: 'auth.value-is-key', section: "Authentication", quote: "The value is `<API_KEY>`." },
  {
    id: 'auth.key-determines-business-and-environment',
    section: "Authentication",
    quote: "A key is bound to one business and alone determines the business and the environment of a request.",
  },
  { id: 'auth.no-business-header', section: "Authentication", quote: "No `X-Business-ID` header is used." },
  {
    id: 'auth.scopes',
    section: "Authentication",
    quote: "Scopes: `payments:read` and `payments:write`, as listed per operation in Endpoints.",
  },
  { id: 'auth.invalid-key-401', section: "Authentication", quote: "Missing, malformed, unknown or revoked key: 401 `invalid_api_key`." },
  { id: 'auth.insufficient-scope-403', section: "Authentication", quote: "Key without the needed scope: 403 `insufficient_scope`." },
  {
    id: 'auth.test-helpers-test-keys-only',
    section: "Authentication",
    quote: "`/test_helpers` operations work for Test secret keys only.",
  },
  {
    id: 'auth.keys-in-dashboard',
    section: "Authentication",
    quote: "Keys are created in the dashboard under Developers, API keys.",
    informative: "Where keys are made; the profile carries them.",
  },
  { id: 'auth.idempotency-scoped-to-key', section: "Authentication", quote: "Idempotency keys are scoped to the API key." },
  {
    id: 'auth.webhook-signing-secret',
    section: "Authentication",
    quote: "Webhook authenticity is by signature (see Events); each webhook endpoint has its own signing secret, `<SIGNING_SECRET>`, " +
      "which starts with `whsec_`.",
  },
  // ── Events › Event types ──
  { id: 'events.type.payment.created', section: "Events › Event types", quote: "| payment.created | a Payment is created | Payment |" },
  { id: 'events.type.payment.paid', section: "Events › Event types", quote: "| payment.paid | a Payment becomes PAID | Payment |" },
  {
    id: 'events.type.payment.cancelled',
    section: "Events › Event types",
    quote: "| payment.cancelled | a Payment is cancelled | Payment |",
  },
  {
    id: 'events.type.payment.reversed',
    section: "Events › Event types",
    quote: "| payment.reversed | a PAID Payment is reversed in the service's records | Payment |",
  },
  {
    id: 'events.type.endpoint.test',
    section: "Events › Event types",
    quote: "| endpoint.test | the dashboard action Send test event is used; Test endpoints only; synthetic, non-financial | no Payment |",
  },
  {
    id: 'events.unknown-types-ignored',
    section: "Events › Event types",
    quote: "New event types may be added; receivers ignore types they do not recognise.",
  },
  // ── Events › Endpoints and routing ──
  {
    id: 'routing.endpoint-registration',
    section: "Events › Endpoints and routing",
    quote: "An endpoint is registered in the dashboard with: an environment (Test or Live), an HTTPS URL, the chosen event types (or " +
      "all), and a signing secret `<SIGNING_SECRET>` shown once and rotatable.",
    untestable: "Endpoints are registered in the dashboard; v1 has no operation for it (the profile declares them).",
  },
  { id: 'routing.production-https', section: "Events › Endpoints and routing", quote: "Production endpoints must be public https URLs." },
  {
    id: 'routing.environment',
    section: "Events › Endpoints and routing",
    quote: "A Test Payment (`livemode: false`) is delivered to Test endpoints only; a Live Payment to Live endpoints only.",
  },
  {
    id: 'routing.disabled-receives-nothing',
    section: "Events › Endpoints and routing",
    quote: "A disabled endpoint receives nothing new.",
  },
  {
    id: 'routing.failing-flag',
    section: "Events › Endpoints and routing",
    quote: "An endpoint that keeps failing is flagged Failing in the dashboard.",
    untestable: "The Failing flag lives in the dashboard; nothing on the wire shows it.",
  },
  // ── Events › Delivery request ──
  { id: 'delivery.method-and-body', section: "Events › Delivery request", quote: "| Method and body | POST, JSON Event |" },
  { id: 'delivery.header.event-id', section: "Events › Delivery request", quote: "| Header `Service-Event-ID` | the event id |" },
  {
    id: 'delivery.header.signature',
    section: "Events › Delivery request",
    quote: "| Header `Service-Signature` | `t=<unix_time>,v1=<hex>` |",
  },
  { id: 'delivery.header.user-agent', section: "Events › Delivery request", quote: "| Header `User-Agent` | `Service-Webhooks/1.0` |" },
  // ── Events › Signature ──
  {
    id: 'signature.hmac-over-raw-body',
    section: "Events › Signature",
    quote: "`v1` is the lowercase hex HMAC-SHA256, keyed with the endpoint's signing secret, over the string `<t>.` followed by the " +
      "exact raw body bytes received (never re-serialised JSON).",
  },
  { id: 'signature.receiver-rejects-stale', section: "Events › Signature", quote: "The receiver rejects a timestamp older than 5 minutes" },
  { id: 'signature.constant-time', section: "Events › Signature", quote: "compares in constant time" },
  {
    id: 'signature.failure-400-not-processed',
    section: "Events › Signature",
    quote: "Signature check failure is answered by the receiver with 400 and the event is not processed.",
  },
  // ── Events › Delivery rules ──
  { id: 'delivery-rules.any-2xx', section: "Events › Delivery rules", quote: "Any 2xx response acknowledges." },
  {
    id: 'delivery-rules.failures',
    section: "Events › Delivery rules",
    quote: "3xx, 4xx, 5xx and time-outs (10 seconds) count as failures.",
  },
  { id: 'delivery-rules.redirects-not-followed', section: "Events › Delivery rules", quote: "Redirects are never followed." },
  {
    id: 'delivery-rules.retry-schedule',
    section: "Events › Delivery rules",
    quote: "Failed deliveries are retried immediately, then after 30 seconds, 2 minutes, 10 minutes, 30 minutes, 2 hours and 6 hours.",
  },
  {
    id: 'delivery-rules.resend-from-dashboard',
    section: "Events › Delivery rules",
    quote: "After that a resend can be requested from the dashboard.",
    untestable: "A resend is a dashboard action; v1 has no operation for it.",
  },
  { id: 'delivery-rules.at-least-once', section: "Events › Delivery rules", quote: "Delivery is at least once." },
  {
    id: 'delivery-rules.retry-same-id-body',
    section: "Events › Delivery rules",
    quote: "A retry carries the same event `id` and the same body.",
  },
  { id: 'delivery-rules.receivers-deduplicate', section: "Events › Delivery rules", quote: "Receivers deduplicate on `event.id`." },
  {
    id: 'delivery-rules.order-not-guaranteed',
    section: "Events › Delivery rules",
    quote: "Arrival order is not guaranteed: `payment.created` may arrive after `payment.paid`.",
    informative: "Leaves the arrival order open: recorded (HOOK-ARRIVAL-ORDER), never judged.",
  },
  {
    id: 'delivery-rules.receivers-fetch-current',
    section: "Events › Delivery rules",
    quote: "Order-sensitive receivers fetch the Payment and act on its current status.",
  },
  {
    id: 'delivery-rules.fulfil-on-verified-paid',
    section: "Events › Delivery rules",
    quote: "Fulfilment is done only from a verified `payment.paid` event.",
  },
  // ── Events › Operations that emit events ──
  { id: 'emits.createPayment', section: "Events › Operations that emit events", quote: "| createPayment | payment.created |" },
  { id: 'emits.cancelPayment', section: "Events › Operations that emit events", quote: "| cancelPayment | payment.cancelled |" },
  {
    id: 'emits.simulatePaymentSucceeded',
    section: "Events › Operations that emit events",
    quote: "| simulatePaymentSucceeded | payment.paid (Test endpoints) |",
  },
  {
    id: 'emits.simulatePaymentCancelled',
    section: "Events › Operations that emit events",
    quote: "| simulatePaymentCancelled | payment.cancelled (Test endpoints) |",
  },
  // ── Errors ──
  { id: 'errors.shape', section: "Errors", quote: "Every error response has the Error shape." },
  { id: 'errors.code-open', section: "Errors", quote: "`code` is a stable string that clients treat as open (new codes may be added)." },
  { id: 'errors.request-id-quoted', section: "Errors", quote: "`request_id` is quoted to support." },
  { id: 'errors.code.invalid_api_key', section: "Errors", quote: "| invalid_api_key | 401 | key missing, malformed, unknown or revoked |" },
  {
    id: 'errors.code.insufficient_scope',
    section: "Errors",
    quote: "| insufficient_scope | 403 | key lacks payments:read or payments:write as required |",
  },
  {
    id: 'errors.code.rate_limit_exceeded',
    section: "Errors",
    quote: "| rate_limit_exceeded | 429 | too many requests for the key; honour the `Retry-After` header (integer) |",
  },
  { id: 'errors.code.invalid_request', section: "Errors", quote: "| invalid_request | 400 | body or a parameter is malformed |" },
  {
    id: 'errors.code.invalid_amount',
    section: "Errors",
    quote: "| invalid_amount | 400 | amount is not a positive decimal string with at most two decimals |",
  },
  { id: 'errors.code.invalid_external_id', section: "Errors", quote: "| invalid_external_id | 400 | external_id invalid or too long |" },
  { id: 'errors.code.invalid_metadata', section: "Errors", quote: "| invalid_metadata | 400 | metadata exceeds its limits |" },
  {
    id: 'errors.code.invalid_return_url',
    section: "Errors",
    quote: "| invalid_return_url | 400 | return_url is not an absolute https URL or a native deep link |",
  },
  {
    id: 'errors.code.invalid_allowed_method',
    section: "Errors",
    quote: "| invalid_allowed_method | 400 | allowed_methods names something other than BKASH or NAGAD |",
  },
  {
    id: 'errors.code.invalid_allowed_channel',
    section: "Errors",
    quote: "| invalid_allowed_channel | 400 | allowed_channels names something other than the four channel values |",
  },
  { id: 'errors.code.description_too_long', section: "Errors", quote: "| description_too_long | 400 | description too long |" },
  { id: 'errors.code.reference_too_long', section: "Errors", quote: "| reference_too_long | 400 | merchant_reference too long |" },
  {
    id: 'errors.code.invalid_customer',
    section: "Errors",
    quote: "| invalid_customer | 400 | customer_id does not belong to the business |",
  },
  { id: 'errors.code.order_not_found', section: "Errors", quote: "| order_not_found | 400 | order_id does not exist for the business |" },
  {
    id: 'errors.code.order_customer_mismatch',
    section: "Errors",
    quote: "| order_customer_mismatch | 400 | payment's customer differs from the order's customer |",
  },
  {
    id: 'errors.code.exceeds_order_due',
    section: "Errors",
    quote: "| exceeds_order_due | 400 | amount exceeds the order's remaining due |",
  },
  { id: 'errors.code.context_items_not_accepted', section: "Errors", quote: "| context_items_not_accepted | 400 | context_items sent |" },
  {
    id: 'errors.code.payment_not_found',
    section: "Errors",
    quote: "| payment_not_found | 404 | no hosted payment with this id for the key's business and environment |",
  },
  { id: 'errors.code.not_found', section: "Errors", quote: "| not_found | 404 | no such API route |" },
  { id: 'errors.code.method_not_allowed', section: "Errors", quote: "| method_not_allowed | 405 | method not allowed for the route |" },
  {
    id: 'errors.code.external_id_conflict',
    section: "Errors",
    quote: "| external_id_conflict | 409 | external_id already used in this business and environment |",
  },
  {
    id: 'errors.code.idempotency_conflict',
    section: "Errors",
    quote: "| idempotency_conflict | 409 | Idempotency-Key reused with a different request |",
  },
  {
    id: 'errors.code.idempotency_in_progress',
    section: "Errors",
    quote: "| idempotency_in_progress | 409 | request with this key still processing; retry shortly |",
  },
  {
    id: 'errors.code.invalid_transition',
    section: "Errors",
    quote: "| invalid_transition | 409 | Payment state does not allow the action, for example cancelling a PAID Payment |",
  },
  { id: 'errors.code.order_cancelled', section: "Errors", quote: "| order_cancelled | 409 | referenced order is cancelled |" },
  {
    id: 'errors.code.payment_method_unavailable',
    section: "Errors",
    quote: "| payment_method_unavailable | 409 | none of the allowed methods usable (live mode) |",
  },
  {
    id: 'errors.code.payment_channel_unavailable',
    section: "Errors",
    quote: "| payment_channel_unavailable | 409 | no ready receiving number accepts the requested payment type (live mode) |",
  },
  {
    id: 'errors.code.payment_detection_not_ready',
    section: "Errors",
    quote: "| payment_detection_not_ready | 409 | business has no enabled, ready receiving method (live mode) |",
  },
  {
    id: 'errors.code.insufficient_credit',
    section: "Errors",
    quote: "| insufficient_credit | 409 | not enough Service Credit for the next fee (live mode) |",
  },
  {
    id: 'errors.code.internal_error',
    section: "Errors",
    quote: "| internal_error | 500 | server-side failure; retry and quote `request_id` if it persists |",
  },
  {
    id: 'errors.retry.create',
    section: "Errors",
    quote: "Client retry guidance: a create is retried after a network failure, a 429 (after `Retry-After`) or a 502, 503 or 504, " +
      "always with the same idempotency key.",
  },
  { id: 'errors.retry.reads', section: "Errors", quote: "Reads are retried the same way." },
  { id: 'errors.retry.cancel-only-429', section: "Errors", quote: "A cancel is retried only after a 429." },
  { id: 'errors.retry.no-other-4xx', section: "Errors", quote: "Other 4xx errors are not retried." },
  // ── Limits ──
  { id: 'limits.list-page-size', section: "Limits", quote: "| list page size `limit` | 1 to 100, default 20 | listPayments |" },
  { id: 'limits.metadata-keys', section: "Limits", quote: "| metadata keys | at most 20 | create |" },
  { id: 'limits.metadata-key-length', section: "Limits", quote: "| metadata key length | at most 64 characters | create |" },
  { id: 'limits.metadata-value-length', section: "Limits", quote: "| metadata value length | at most 500 characters | create |" },
  { id: 'limits.idempotency-retention', section: "Limits", quote: "| idempotency key retention | 24 hours | createPayment |" },
  { id: 'limits.webhook-timestamp-tolerance', section: "Limits", quote: "| webhook timestamp tolerance | 5 minutes | signature check |" },
  { id: 'limits.webhook-timeout', section: "Limits", quote: "| webhook response time-out | 10 seconds | delivery |" },
  {
    id: 'limits.webhook-retry-schedule',
    section: "Limits",
    quote: "| webhook retry schedule | immediately, 30 s, 2 min, 10 min, 30 min, 2 h, 6 h | delivery |",
  },
  { id: 'limits.amount-precision', section: "Limits", quote: "| amount precision | at most two decimals | create |" },
  {
    id: 'limits.rate-limit-per-key',
    section: "Limits",
    quote: "Rate limiting exists per key: the response is 429 `rate_limit_exceeded` with an integer `Retry-After` header.",
  },
  {
    id: 'limits.rate-thresholds-not-shown',
    section: "Limits",
    quote: "The request thresholds and window: not shown.",
    informative: "Not shown: the thresholds are recorded (LIMIT-RATE-THRESHOLD), never judged.",
  },
  {
    id: 'limits.max-lengths-not-shown',
    section: "Limits",
    quote: "Maximum lengths of description, merchant_reference and external_id: not shown.",
    informative: "Not shown: the longest accepted values are found by bisection and recorded.",
  },
  // ── Versioning ──
  { id: 'versioning.path-prefix', section: "Versioning", quote: "The API major version is the `/v1` path prefix." },
  { id: 'versioning.event-api-version', section: "Versioning", quote: "Events carry `api_version` equal to `v1`." },
  {
    id: 'versioning.description-document',
    section: "Versioning",
    quote: "The description document of the API has its own semver-style version, 1.0.0, independent of any client library version.",
  },
  {
    id: 'versioning.additive-evolution',
    section: "Versioning",
    quote: "Additive evolution within v1: new PaymentStatus values, PaymentMethod values, CollectionChannel values, event types and " +
      "error codes may be added.",
  },
  {
    id: 'versioning.tolerate-unknown-strict-filters',
    section: "Versioning",
    quote: "Clients tolerate unknown values when reading; request filters stay strict.",
  },
  {
    id: 'versioning.deprecation-not-shown',
    section: "Versioning",
    quote: "Deprecation and removal policy: not shown.",
    informative: "Not shown: nothing on the wire expresses a deprecation policy.",
  },
] as const satisfies readonly ClauseDef[];

export type ClauseId = (typeof CLAUSES)[number]['id'];
