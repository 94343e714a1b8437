/**
 * The spec's obligations: each normative clause (catalogue/clauses.ts) split into the things it
 * obliges, one verb phrase or one constraint each. "`param` is optional and names the offending
 * parameter" is two obligations; a field row of a table is its type, its presence and its stated
 * meaning, wherever the field appears (a create's answer, `GET`, a list item, an event's
 * `data.object`).
 *
 * An obligation's id is `<clause id>#<name>`; a clause that obliges one thing only is its own
 * obligation (its id is the clause id). Ids are stable: a clause split later keeps its id for
 * none of its new obligations, and no id is reused.
 *
 * An obligation is proved when a planted fault that violates it alone (it `violates` that id and
 * no other) fails a rule citing its clause: cli/clause-matrix.ts derives the standing,
 * test/catalogue/obligations.test.ts holds it, and the mutation score shows the fault caught.
 */
import { CLAUSES, type ClauseDef, type ClauseId } from './clauses.ts';

export interface ObligationDef {
  /** `<clause id>#<name>`, or the clause id for a clause with one obligation. */
  readonly id: string;
  readonly clause: ClauseId;
  /** What is obliged, in a few words. */
  readonly says: string;
  /** Normative, but no request or delivery can show it: why. */
  readonly untestable?: string;
}

type Split = ReadonlyArray<readonly [name: string, says: string, untestable?: string]>;

const WHERE = 'in every answer that holds a Payment (create, GET, list item, cancel and helper answers, event data.object)';

/** A Payment field row: its type, its presence when required, its stated meaning when there is one. */
function paymentField(field: string, type: string, required: boolean, meaning?: string): Split {
  return [
    ['type', `\`${field}\` is ${type} ${WHERE}`],
    ...(required ? ([['present', `\`${field}\` is present ${WHERE}`]] as const) : []),
    ...(meaning ? ([['meaning', meaning]] as const) : []),
  ];
}

/** An optional create field that a Payment echoes: accepted as a string, echoed unchanged. */
function echoedCreateField(field: string): Split {
  return [
    ['accepted', `a create with a string \`${field}\` is accepted`],
    ['echoed', `the Payment holds \`${field}\` exactly as sent`],
  ];
}

/** An error table row: the condition answers the code, with the status. */
function errorRow(code: string, status: number, condition: string): Split {
  return [
    ['code', `${condition}: answers code \`${code}\``],
    ['status', `\`${code}\` comes with HTTP ${status}`],
  ];
}

export const OBLIGATION_SPLITS: Partial<Record<ClauseId, Split>> = {
  'overview.test-touches-no-money': [
    ['no-live-checks', 'a Test create is never refused for Live readiness (receiving method, channel, detection) or Service Credit'],
    ['no-real-money', 'a Test Payment moves no real money', 'Money and accounts are behind the service; the API shows no transfer.'],
  ],
  'overview.test-live-cannot-see-each-other': [
    ['test-key-cannot-see-live', 'a Test key cannot read a Live Payment (GET or list)'],
    ['test-key-cannot-modify-live', 'a Test key cannot cancel a Live Payment'],
    ['live-key-cannot-see-test', 'a Live key cannot read a Test Payment (GET or list)'],
    ['live-key-cannot-modify-test', 'a Live key cannot cancel or simulate a Test Payment'],
  ],
  'overview.live-ux-check': [
    ['receiving-method', 'a Live create without an enabled, bridge-ready receiving method is refused'],
    ['credit', 'a Live create without enough Service Credit for the next fee is refused'],
    ['nothing-else', 'a Live create with a ready method and enough credit is accepted'],
  ],
  'overview.json-over-https': [
    ['json', 'every answer of the API is JSON'],
    [
      'https',
      'the API is served over HTTPS',
      'The transport is the deployment\'s choice of base_url; a loopback or staging target may be plain HTTP.',
    ],
  ],
  'overview.amounts-decimal-strings': [
    ['answers-strings', 'amounts in answers are decimal strings, never JSON numbers'],
    ['requests-strings', 'an amount sent as a JSON number is refused'],
  ],
  'payment.field.id': paymentField('id', 'a string', true, 'the id names the Payment: GET of it answers the same Payment'),
  'payment.field.object': paymentField('object', 'a string', true, '`object` is always `payment`'),
  'payment.field.livemode': paymentField('livemode', 'a boolean', true, '`livemode` is false for a Test Payment and true for a Live one'),
  'payment.field.status': [
    ...paymentField('status', 'a PaymentStatus', true),
    ['current', '`status` is the Payment\'s current state in every representation'],
  ],
  'payment.field.amount': paymentField(
    'amount',
    'a string',
    true,
    '`amount` is a decimal string in BDT major units equal to the amount created',
  ),
  'payment.field.currency': paymentField('currency', 'a string', true, '`currency` is always `BDT`'),
  'payment.field.description': paymentField('description', 'a string or null', false, '`description` is what the create sent'),
  'payment.field.merchant_reference': paymentField(
    'merchant_reference',
    'a string or null',
    false,
    '`merchant_reference` is what the create sent, kept apart from external_id',
  ),
  'payment.field.external_id': paymentField('external_id', 'a string or null', false, '`external_id` is what the create sent'),
  'payment.field.metadata': paymentField('metadata', 'a Metadata object', false, '`metadata` is what the create sent'),
  'payment.field.allowed_methods': paymentField('allowed_methods', 'an array of PaymentMethod', false),
  'payment.field.allowed_channels': paymentField('allowed_channels', 'an array of CollectionChannel', false),
  'payment.field.return_url': paymentField('return_url', 'a string or null', false),
  'payment.field.checkout_url': paymentField(
    'checkout_url',
    'a string or null',
    false,
    '`checkout_url` is an absolute address of the hosted checkout',
  ),
  'payment.field.created_at': paymentField('created_at', 'a date-time string', true, '`created_at` is the moment of the create'),
  'payment.field.paid_at': paymentField('paid_at', 'a date-time string or null', false, '`paid_at` is set when the Payment becomes PAID'),
  'payment.field.cancelled_at': paymentField(
    'cancelled_at',
    'a date-time string or null',
    false,
    '`cancelled_at` is set when the Payment is cancelled',
  ),
  'enums.payment-status': [
    ['values', 'a Payment\'s status is one of PENDING, PAID, CANCELLED, REVERSED'],
    ['reversed-no-transfer', 'REVERSED implies no provider-side transfer back', 'The provider side is not visible through the API.'],
  ],
  'metadata.string-map': [
    ['string-values', 'metadata values are strings: a non-string value is refused'],
    ['echoed', 'metadata supplied is kept as supplied'],
  ],
  'create.field.amount': [
    ['required', 'a create without amount is refused'],
    ['valid-accepted', 'any positive decimal string with at most two decimals is accepted, however large'],
    ['positive', 'a zero or negative amount is refused'],
    ['precision', 'an amount with more than two decimals is refused'],
    ['not-number', 'an amount sent as a JSON number is refused'],
    ['exact', 'an accepted amount is kept exactly, as a decimal'],
  ],
  'create.field.description': echoedCreateField('description'),
  'create.field.merchant_reference': echoedCreateField('merchant_reference'),
  'create.field.external_id': [
    ['unique-when-set', 'a second create with the same external_id in one business and environment is refused'],
    ['scope-business', 'the same external_id in another business is accepted'],
    ['scope-environment', 'the same external_id in the other environment is accepted'],
    ['exact', 'external_ids are compared exactly (no case folding or trimming)'],
    ['refused-not-held', 'a refused create used no external_id: the next valid create with it is accepted'],
  ],
  'create.field.return_url': [
    ['https-accepted', 'an absolute https return_url is accepted'],
    ['deep-link-accepted', 'a native-app deep link return_url is accepted'],
    ['forbidden-schemes', '`javascript:`, `data:`, `file:` and `intent:` return_urls are always rejected, in any case'],
    ['not-https-rejected', 'an http (or relative) return_url is rejected'],
    ['not-proof', 'a return_url is never proof of payment', 'A merchant-side duty: the API cannot show what a merchant takes as proof.'],
  ],
  'create.field.metadata': [
    ['accepted', 'metadata within its limits is accepted'],
    ['echoed', 'the Payment holds metadata exactly as sent'],
  ],
  'create.field.allowed_methods': [
    ['valid-accepted', 'BKASH and NAGAD are accepted'],
    ['others-rejected', 'any other method (including other case or spacing) is rejected'],
  ],
  'create.field.allowed_channels': [
    ['valid-accepted', 'each of the four channel values is accepted'],
    ['others-rejected', 'any other channel (including other case) is rejected'],
  ],
  'create.field.customer_id': [
    ['own-accepted', 'a customer of the caller\'s business is accepted'],
    ['foreign-rejected', 'a customer of another business (or none) is rejected'],
    ['same-environment', 'a customer of the business\'s other environment is rejected (the environments are fully isolated)'],
  ],
  'create.field.order_id': [
    ['must-exist', 'an order_id that does not exist for the caller\'s business is rejected'],
    ['same-environment', 'an order of the business\'s other environment is rejected (the environments are fully isolated)'],
    ['customer-match', 'a customer differing from the order\'s customer is rejected'],
    ['within-due', 'an amount up to the order\'s remaining due is accepted'],
    ['exceeds-due', 'an amount over the order\'s remaining due is rejected'],
    ['not-cancelled', 'a cancelled order is rejected'],
  ],
  'list.field.object': [['type', 'a list answer has `object` = `list`']],
  'list.field.data': [['type', 'a list answer has `data`, an array of Payments']],
  'list.field.has_more': [
    ['type', 'a list answer has `has_more`, a boolean'],
    ['meaning', '`has_more` is true exactly when more Payments follow the page'],
  ],
  'list.field.next_cursor': [['type', '`next_cursor`, when present, is a string or null']],
  'event.field.id': [
    ['prefix', 'an event id is a string starting `evt_`'],
    ['once-per-event', 'each logical event has its own id'],
    ['reused-on-retry', 'every retry of an event carries the same id'],
  ],
  'event.field.created_at': [['type', 'an event\'s created_at is a date-time string']],
  'event.field.livemode': [
    ['type', 'an event\'s livemode is a boolean'],
    ['meaning', 'an event\'s livemode is that of its Payment'],
  ],
  'event.field.data': [
    ['present', 'an event has `data` with `object`'],
    ['payment', 'for payment.* events, data.object is a Payment'],
  ],
  'event.data-object-is-get': [
    ['created', 'payment.created\'s data.object is what GET returned at that moment'],
    ['after-transition', 'a transition event\'s data.object shows the Payment after the transition, as GET does'],
  ],
  'error.param-optional': [
    [
      'optional',
      'an error may omit `param`',
      'A permission, not a duty: an error with or without param is conformant, so no answer can break it.',
    ],
    ['names-parameter', 'when present, `param` names the offending parameter'],
  ],
  'states.create-pending': [
    ['pending', 'a valid create makes a PENDING Payment'],
    ['event', 'a valid create emits payment.created'],
    ['refused-no-event', 'a refused create makes no Payment and emits no event'],
  ],
  'states.cancel': [
    ['pending-only', 'a cancel of a PENDING Payment makes it CANCELLED'],
    ['cancelled-at', 'a cancel sets cancelled_at'],
    ['event', 'a cancel emits payment.cancelled'],
    [
      'checkout-and-fee',
      'the active checkout attempt is cancelled and its fee reservation released',
      'Checkout attempts and fee reservations are not visible through the API.',
    ],
  ],
  'states.helper-succeed': [
    ['paid', 'succeed on a PENDING Test Payment makes it PAID'],
    ['paid-at', 'succeed sets paid_at'],
    ['event', 'succeed emits payment.paid to Test endpoints'],
    ['no-money', 'no real money, SMS, bridge or Service Credit is involved', 'Behind the service; nothing on the wire shows it.'],
  ],
  'states.helper-cancel': [
    ['cancelled', 'the helper cancel on a PENDING Test Payment makes it CANCELLED'],
    ['event', 'the helper cancel emits payment.cancelled to Test endpoints'],
  ],
  'states.reversed': [
    ['reversed', 'a reversal makes a PAID Payment REVERSED'],
    ['event', 'a reversal emits payment.reversed'],
  ],
  'states.illegal-409': [
    ['cancel', 'a cancel of a Payment that is not PENDING answers 409 invalid_transition'],
    ['helpers', 'a helper succeed or cancel of a Payment that is not PENDING answers 409 invalid_transition'],
    ['no-change', 'a refused transition changes nothing and emits no event'],
  ],
  'endpoints.bearer-required': [
    ['missing-refused', 'a request without Authorization never succeeds'],
    ['bearer-scheme', 'only the Bearer scheme is taken'],
  ],
  'endpoints.op.createPayment': [
    ['route', 'POST /payments creates'],
    ['key-recommended', 'a merchant client sends an Idempotency-Key on a create (recommended)'],
    ['scope', 'create needs payments:write'],
    ['answer', 'create answers 201 with a PENDING Payment with checkout_url'],
  ],
  'endpoints.op.listPayments': [
    ['scope', 'list needs payments:read'],
    ['answer', 'list answers 200 with a PaymentList'],
  ],
  'endpoints.op.getPayment': [
    ['scope', 'GET needs payments:read'],
    ['answer', 'GET answers 200 with the Payment'],
  ],
  'endpoints.op.cancelPayment': [
    ['scope', 'cancel needs payments:write'],
    ['answer', 'cancel answers 200 with the CANCELLED Payment'],
  ],
  'endpoints.op.simulatePaymentSucceeded': [
    ['scope', 'succeed needs payments:write'],
    ['answer', 'succeed answers 200 with the PAID Payment'],
  ],
  'endpoints.op.simulatePaymentCancelled': [
    ['scope', 'the helper cancel needs payments:write'],
    ['answer', 'the helper cancel answers 200 with the CANCELLED Payment'],
  ],
  'list.param.status': [
    ['filters', 'status= lists only Payments of that status, for every status'],
    ['strict', 'an unknown or other-case status value is refused'],
  ],
  'list.param.external_id': [['filters', 'external_id= lists exactly the Payments with that external_id']],
  'list.param.created_from': [['filters', 'created_from= lists only Payments created at or after it']],
  'list.param.created_to': [['filters', 'created_to= lists only Payments created at or before it']],
  'list.param.limit': [
    ['bounds', 'limit outside 1 to 100 is refused; 1 and 100 are accepted'],
    ['default', 'without limit a page holds at most 20'],
    ['respected', 'a page holds at most `limit` Payments'],
  ],
  'list.param.starting_after': [
    ['after', 'starting_after lists what follows that id, not the id itself'],
    ['named', 'starting_after may name any Payment the key can see, whatever its status now: the filters choose what follows it'],
    ['complete',
      'immediately after: nothing between the cursor and the page is skipped, so paging with starting_after visits every Payment once'],
  ],
  'versioning.tolerate-unknown-strict-filters': [
    ['tolerate', 'clients tolerate unknown values when reading',
      'A client-side rule; the suite honours it itself (RESP-ENUM-KNOWN warns, never fails).'],
    ['strict-filters', 'a request filter with an unknown value is refused, never ignored'],
  ],
  'rules.idempotency.same-key-same-body': [
    ['exact-key', 'the same key is the same bytes: a key differing in letter case is another key'],
    ['original-result', 'a replay returns the original result'],
    ['no-duplicate', 'a replay creates no second Payment'],
    ['no-second-event', 'a replay emits no second payment.created'],
  ],
  'rules.payment-not-found': [
    ['unknown-id', 'an id that does not exist answers 404 payment_not_found'],
    ['other-business', 'a Payment of another business answers 404 payment_not_found'],
    ['other-environment', 'a Payment of the other environment answers 404 payment_not_found'],
  ],
  'rules.test-live-never-see-each-other': [
    ['test-key', 'a Test key never sees Live Payments'],
    ['live-key', 'a Live key never sees Test Payments'],
  ],
  'rules.unknown-route-wrong-method': [
    ['unknown-route', 'an unknown route answers 404 not_found'],
    ['wrong-method', 'a wrong method on a route answers 405 method_not_allowed'],
    ['allow-header', 'a 405 names the methods the route allows (Allow), as HTTP requires of a 405'],
  ],
  'receiver-op.post-to-subscribed-endpoints': [
    ['post-json', 'deliveries are POSTs with an Event JSON body'],
    ['every-enabled-endpoint', 'each enabled endpoint subscribed to the type receives it'],
    ['subscribed-only', 'an endpoint not subscribed to the type receives nothing'],
    ['same-environment', 'only endpoints of the Payment\'s environment receive it'],
  ],
  'auth.scheme-bearer': [
    ['only-bearer', 'only HTTP bearer credentials authenticate (no other scheme, no bare key)'],
    ['challenge', 'a 401 carries the bearer challenge (WWW-Authenticate), as HTTP bearer does'],
  ],
  'delivery.header.signature': [
    ['form', 'Service-Signature has the form t=<unix_time>,v1=<hex>'],
    ['t-now', 't is the unix time of sending'],
  ],
  'auth.key-determines-business-and-environment': [
    ['business', 'the key alone determines the business'],
    ['environment', 'the key alone determines the environment'],
  ],
  'auth.scopes': [
    ['read', 'reads need payments:read'],
    ['write', 'writes need payments:write'],
    ['sufficient', 'a key with the listed scope is allowed'],
  ],
  'auth.invalid-key-401': [
    ['missing', 'a missing key answers 401 invalid_api_key'],
    ['malformed', 'a malformed key answers 401 invalid_api_key'],
    ['unknown', 'an unknown key answers 401 invalid_api_key'],
    ['revoked', 'a revoked key answers 401 invalid_api_key'],
  ],
  'auth.webhook-signing-secret': [
    ['signed', 'deliveries are signed'],
    ['own-secret', 'each endpoint\'s deliveries are signed with its own secret'],
  ],
  'routing.environment': [
    ['test', 'a Test Payment\'s events go to Test endpoints only'],
    ['live', 'a Live Payment\'s events go to Live endpoints only'],
  ],
  'signature.hmac-over-raw-body': [
    ['service-signs', 'the service\'s v1 is the lowercase hex HMAC-SHA256 of `<t>.` and the exact body bytes'],
    ['receiver-raw-body', 'the receiver verifies over the raw bytes received, never re-serialised JSON'],
    ['receiver-strict', 'the receiver takes only the exact lowercase hex form'],
  ],
  'signature.receiver-rejects-stale': [
    ['stale', 'a receiver rejects a timestamp older than 5 minutes'],
    ['edge', 'a receiver accepts a timestamp within 5 minutes'],
  ],
  'signature.failure-400-not-processed': [
    ['answers-400', 'a receiver answers a failed signature check with 400'],
    ['not-processed', 'a receiver does not process an event whose signature failed'],
  ],
  'delivery-rules.failures': [
    ['3xx-4xx-5xx', 'a 3xx, 4xx or 5xx answer counts as a failure and is retried'],
    ['time-out', 'no answer within 10 seconds counts as a failure'],
  ],
  'delivery-rules.retry-schedule': [
    ['gaps', 'retries come immediately, then after 30 s, 2 min, 10 min, 30 min, 2 h and 6 h'],
    ['count', 'there are no attempts beyond the schedule'],
    ['per-endpoint', 'a delivery failed at one endpoint is retried on the schedule whatever the other endpoints answered'],
  ],
  'delivery-rules.retry-same-id-body': [
    ['same-id', 'a retry carries the same event id'],
    ['same-body', 'a retry carries the byte-identical body'],
  ],
  'errors.retry.create': [
    ['retried', 'a merchant client retries a create after a network failure, a 429 or a 502/503/504'],
    ['after-retry-after', 'a retry after a 429 waits for Retry-After'],
    ['same-key', 'every retry of a create carries the same Idempotency-Key'],
    ['throttled-retry-served',
      'a create refused 429 and retried after Retry-After with the same key and body is processed (201), never held by the refused try'],
  ],
  'limits.list-page-size': [
    ['bounds', 'page size 1 to 100'],
    ['default', 'page size default 20'],
  ],
  'limits.rate-limit-per-key': [
    ['per-key', 'rate limiting is per key, not per business'],
    ['answer', 'a limited request answers 429 rate_limit_exceeded'],
    ['retry-after', 'a 429 carries an integer Retry-After'],
    ['recovery', 'after Retry-After seconds the key is served again'],
  ],
  'errors.code.invalid_api_key': errorRow('invalid_api_key', 401, 'a missing, malformed, unknown or revoked key'),
  'errors.code.external_id_conflict': errorRow('external_id_conflict', 409, 'a used external_id'),
  'errors.code.idempotency_conflict': errorRow('idempotency_conflict', 409, 'an Idempotency-Key reused with another request'),
  'errors.code.invalid_transition': errorRow('invalid_transition', 409, 'an action the state does not allow'),
};

/** Every obligation of every normative clause, in clause order. */
/**
 * Normative clauses of one obligation that no request or delivery can show, with why. (A clause
 * split in OBLIGATION_SPLITS says so per obligation instead.)
 */
const WHOLE_CLAUSE_UNTESTABLE: Partial<Record<ClauseId, string>> = {
  'errors.code-open':
    "\"Stable\" is a promise across time and versions that no run can show broken; that each condition answers its table code is each " +
      "error row's obligation (errors.code.*), and treating codes as open is the clients' part, which the suite honours itself (an " +
      "unknown code is named, never failed).",
  'errors.code.internal_error':
    'No request makes a conformant service fail on its side, so nothing can provoke the row; when an internal_error is seen its ' +
      'status is checked against 500 (RESP-ERROR-STATUS-MATCHES-CODE) and any 5xx is named (RESP-NO-5XX), and its retry guidance is ' +
      'observed on the client side (CLIENT-RETRY-AFTER-500).',
};

export const OBLIGATIONS: readonly ObligationDef[] = (CLAUSES as ReadonlyArray<ClauseDef & { id: ClauseId }>).flatMap((c) => {
  if (c.informative) return [];
  const split = OBLIGATION_SPLITS[c.id];
  if (split === undefined) {
    const why = WHOLE_CLAUSE_UNTESTABLE[c.id] ?? c.untestable;
    return [{ id: c.id, clause: c.id, says: c.quote, ...(why ? { untestable: why } : {}) }];
  }
  return split.map(([name, says, untestable]) => {
    const why = untestable ?? c.untestable;
    return { id: `${c.id}#${name}`, clause: c.id, says, ...(why ? { untestable: why } : {}) };
  });
});

const byId = new Map(OBLIGATIONS.map((o) => [o.id, o]));

export function isObligationId(id: string): boolean {
  return byId.has(id);
}

/** The obligation ids of these clauses, in catalogue order. */
export function obligationsOfClauses(clauses: readonly string[]): string[] {
  const wanted = new Set(clauses);
  return OBLIGATIONS.filter((o) => wanted.has(o.clause)).map((o) => o.id);
}
