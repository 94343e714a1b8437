/**
 * createPayment: POST /payments (spec, "Endpoints", "Rules" 1-4, "CreatePaymentRequest").
 *
 * Steps, in order:
 *  1. Idempotency-Key header well-formed (400 invalid_request); body at most 1 MiB.
 *  2. With an Idempotency-Key: replay / idempotency_conflict / idempotency_in_progress,
 *     or reserve the key (idempotency.ts).
 *  3. Processing time (createDelayMs), during which the key is "still processing".
 *  4. Body: JSON object with Content-Type application/json; fields (validate-create.ts).
 *  5. customer_id / order_id (order-checks.ts).
 *  6. external_id unique in the business and environment (409 external_id_conflict).
 *  7. Live keys only: readiness (live-readiness.ts).
 *  8. Commit (synchronously after step 3, so concurrent requests cannot both pass 6),
 *     event payment.created with the very representation answered, 201.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AppContext } from './context.ts';
import { ApiError } from './errors.ts';
import type { RequestBody } from './http-io.ts';
import { bodyFingerprint, readIdempotencyKey } from './idempotency.ts';
import { newPaymentId } from './ids.ts';
import { checkLiveReadiness } from './live-readiness.ts';
import { checkRelations, type ResolvedRelations } from './order-checks.ts';
import { checkoutUrlFor, toPaymentResource } from './payments.ts';
import { jsonReply, type Reply } from './reply.ts';
import { BODY_LIMIT_BYTES, MAX_LENGTHS } from './decisions.ts';
import { formatCents } from './decimal.ts';
import { COLLECTION_CHANNELS, PAYMENT_METHODS, type ApiKeyRecord, type Order, type PaymentRecord } from './types.ts';
import { parseJsonObjectBody, rejectNullFields, rejectUnknownFields, validateCreateRequest, type CreatePaymentInput } from './validate-create.ts';
import { emitEvent } from './webhooks/emit.ts';
import { checkOf, type Step } from './steps.ts';

export async function createPayment(
  ctx: AppContext,
  key: ApiKeyRecord,
  headers: IncomingHttpHeaders,
  body: RequestBody,
): Promise<Reply> {
  const idempotencyKey = idempotencyKeyOf(ctx, headers);
  if (body.bytes.length > BODY_LIMIT_BYTES[ctx.decisions.bodyLimit]) {
    throw new ApiError('invalid_request', { message: `The request body exceeds ${ctx.decisions.bodyLimit}.` });
  }
  if (body.tooLarge) throw new ApiError('invalid_request', { message: 'The request body exceeds 1 MiB.' });
  if (idempotencyKey === null) return runCreate(ctx, key, headers['content-type'], body);
  if (ctx.faults.has('idempotency-key-ignored')) {
    /* FAULT idempotency-key-ignored: the Idempotency-Key header is read but never used: every request is processed anew */
    return runCreate(ctx, key, headers['content-type'], body);
  }
  let fingerprint = bodyFingerprint(body.bytes, ctx.decisions.bodyIdentity);
  if (ctx.faults.has('idempotency-ignores-body')) {
    /* FAULT idempotency-ignores-body: the body is not part of the stored request: a different body replays the original */
    fingerprint = 'any body';
  }
  let scope = key.key;
  if (ctx.faults.has('idempotency-scoped-to-business')) {
    /* FAULT idempotency-scoped-to-business: keys are stored per business and environment, not per API key */
    scope = `${key.businessId}:${key.env}`;
  }
  if (ctx.faults.has('idempotency-no-in-progress-guard')) {
    /* FAULT idempotency-no-in-progress-guard: the key is recorded only once the request has finished, so identical requests arriving meanwhile are all processed */
    const seen = ctx.state.idempotency.begin(scope, idempotencyKey, fingerprint, ctx.now());
    if (seen.kind === 'replay') return { status: seen.response.status, body: seen.response.body, headers: { 'Idempotent-Replayed': 'true' } };
    ctx.state.idempotency.release(seen.slot);
    const reply = await runCreate(ctx, key, headers['content-type'], body);
    const done = ctx.state.idempotency.begin(scope, idempotencyKey, fingerprint, ctx.now());
    if (done.kind === 'started') ctx.state.idempotency.complete(done.slot, { status: reply.status, body: reply.body });
    return reply;
  }

  const outcome = ctx.state.idempotency.begin(scope, idempotencyKey, fingerprint, ctx.now(), ctx.decisions.idempotencyClash);
  if (outcome.kind === 'replay' && outcome.response.error !== undefined) {
    const original = outcome.response.error;
    throw new ApiError(original.code, { param: original.param, message: original.message, headers: { ...original.headers, 'Idempotent-Replayed': 'true' } });
  }
  if (outcome.kind === 'replay') {
    if (ctx.faults.has('replay-rechecks-external-id')) {
      /* FAULT replay-rechecks-external-id: a replay runs the external_id uniqueness check again, so it finds its own Payment and answers external_id_conflict */
      checkExternalIdUnique(ctx, key, validateCreateRequest(parseJsonObjectBody(headers['content-type'], body)).externalId);
    }
    if (ctx.faults.has('replay-after-transition-recreates')) {
      /* FAULT replay-after-transition-recreates: the stored result is honoured only while its Payment is PENDING; a later replay runs the create again */
      const original = ctx.state.payments.getAny(String(JSON.parse(outcome.response.body.toString('utf8')).id));
      if (original !== undefined && original.status !== 'PENDING') return runCreate(ctx, key, headers['content-type'], body);
    }
    return { status: outcome.response.status, body: replayBody(ctx, outcome.response.body), headers: { 'Idempotent-Replayed': 'true' } };
  }
  try {
    const reply = await runCreate(ctx, key, headers['content-type'], body);
    ctx.state.idempotency.complete(outcome.slot, { status: reply.status, body: reply.body });
    return reply;
  } catch (err) {
    if (ctx.decisions.idempotentErrors === 'stored' && err instanceof ApiError && err.status >= 400 && err.status < 500) {
      ctx.state.idempotency.complete(outcome.slot, { status: err.status, body: Buffer.alloc(0), error: err });
    } else {
      ctx.state.idempotency.release(outcome.slot);
    }
    throw err;
  }
}

/** The Idempotency-Key header as the store keys it. */
function idempotencyKeyOf(ctx: AppContext, headers: IncomingHttpHeaders): string | null {
  const idempotencyKey = readIdempotencyKey(headers['idempotency-key'], ctx.decisions.idempotencyKeyMax);
  if (idempotencyKey !== null && ctx.faults.has('idempotency-key-case-folded')) {
    /* FAULT idempotency-key-case-folded: the key is stored lower-cased (a case-insensitive column), so keys differing only in case are one key */
    return idempotencyKey.toLowerCase();
  }
  return idempotencyKey;
}

/** replayBody decision: the stored 201 bytes, or the created Payment as it is now. */
function replayBody(ctx: AppContext, stored: Buffer): Buffer {
  if (ctx.decisions.replayBody === 'original-snapshot') return stored;
  const id = String((JSON.parse(stored.toString('utf8')) as { id?: unknown }).id);
  const payment = ctx.state.payments.getAny(id);
  return payment === undefined ? stored : jsonReply(201, toPaymentResource(payment, ctx.decisions)).body;
}

async function runCreate(
  ctx: AppContext,
  key: ApiKeyRecord,
  contentType: string | undefined,
  body: RequestBody,
): Promise<Reply> {
  if (ctx.createDelayMs > 0) await sleep(ctx.createDelayMs);
  if (ctx.faults.has('malformed-json-crashes')) {
    /* FAULT malformed-json-crashes: a bare JSON.parse before validation; a body that is not JSON throws and answers 500 */
    JSON.parse(body.bytes.toString('utf8'));
  }
  const d = ctx.decisions;
  const fields = parseJsonObjectBody(contentType, body, ctx.faults, d.contentType);
  const input = validateCreateRequest(fields, ctx.faults, { precedence: d.fieldPrecedence, lengths: MAX_LENGTHS[d.maxLengths] });
  if (d.nullFields === 'rejected') rejectNullFields(fields);
  if (d.unknownFields === 'rejected') rejectUnknownFields(fields);
  const reservedCents = d.orderDue === 'pending-reserves' ? (order: Order) => pendingCentsOf(ctx, key, order) : undefined;
  const relations = checkRelations({ customers: ctx.state.customers, orders: ctx.state.orders, reservedCents }, key, input, ctx.faults);
  checkExternalIdUnique(ctx, key, input.externalId);
  if (key.env === 'live') checkLiveReadiness(businessOf(ctx, key), input, ctx.faults);
  if (key.env === 'test' && ctx.faults.has('live-checks-in-test-mode')) {
    /* FAULT live-checks-in-test-mode: the Live readiness checks also run for Test keys, against the business's Live receiving side */
    checkLiveReadiness(businessOf(ctx, key), input, ctx.faults);
  }
  const payment = commitPayment(ctx, key, input, relations);
  const resource = toPaymentResource(payment, ctx.decisions);
  let eventObject: object = resource;
  if (ctx.faults.has('created-event-without-checkout-url')) {
    /* FAULT created-event-without-checkout-url: payment.created is rendered before the checkout session is attached: no checkout_url */
    const { checkout_url: _checkoutUrl, ...early } = resource;
    eventObject = early;
  }
  const emitCreated = () => emitEvent(ctx, 'payment.created', { businessId: payment.businessId, env: payment.env, paymentId: payment.id }, eventObject, payment.createdAt);
  // createdEventTiming decision: the event is created now either way; 'after-response' hands it to the dispatcher once the 201 is out.
  if (d.createdEventTiming === 'after-response') setImmediate(emitCreated);
  else emitCreated();
  if (ctx.faults.has('create-answers-amount-as-number')) {
    /* FAULT create-answers-amount-as-number: the 201 serialises amount as a JSON number (the ORM's decimal) */
    return jsonReply(201, { ...resource, amount: Number(resource.amount) });
  }
  return jsonReply(201, resource);
}

/** Rule 4: an external_id already used in the same business and environment → 409. */
export function checkExternalIdUnique(ctx: AppContext, key: ApiKeyRecord, externalId: string | null): void {
  if (externalId === null) return;
  if (ctx.faults.has('external-id-not-unique')) {
    /* FAULT external-id-not-unique: external_id is stored but its uniqueness is never checked */
    return;
  }
  if (ctx.faults.has('external-id-unique-across-businesses')) {
    /* FAULT external-id-unique-across-businesses: uniqueness is checked over every business of the environment, not the caller's alone */
    for (const businessId of ctx.state.businesses.keys()) {
      if (ctx.state.payments.findByExternalId(businessId, key.env, externalId) !== undefined) {
        throw new ApiError('external_id_conflict', { param: 'external_id' });
      }
    }
  }
  if (ctx.faults.has('external-id-unique-across-environments')) {
    /* FAULT external-id-unique-across-environments: uniqueness is checked over Test and Live together */
    const other = key.env === 'live' ? 'test' : 'live';
    if (ctx.state.payments.findByExternalId(key.businessId, other, externalId) !== undefined) {
      throw new ApiError('external_id_conflict', { param: 'external_id' });
    }
  }
  if (ctx.faults.has('external-id-compared-trimmed')) {
    /* FAULT external-id-compared-trimmed: uniqueness compares trimmed values, so "ORD-1 " conflicts with "ORD-1" */
    const trimmed = externalId.trim();
    if (ctx.state.payments.ascending(key.businessId, key.env).some((p) => p.externalId?.trim() === trimmed)) {
      throw new ApiError('external_id_conflict', { param: 'external_id' });
    }
  }
  if (ctx.faults.has('external-id-case-folded')) {
    /* FAULT external-id-case-folded: uniqueness is checked case-insensitively (a citext column), so ORD-1 conflicts with ord-1 */
    const folded = externalId.toLowerCase();
    if (ctx.state.payments.ascending(key.businessId, key.env).some((p) => p.externalId?.toLowerCase() === folded)) {
      throw new ApiError('external_id_conflict', { param: 'external_id' });
    }
  }
  if (ctx.state.payments.findByExternalId(key.businessId, key.env, externalId) !== undefined) {
    if (ctx.faults.has('external-id-conflict-answers-400')) {
      /* FAULT external-id-conflict-answers-400: the conflict is raised as a validation error, 400 with code external_id_conflict */
      throw Object.assign(new ApiError('external_id_conflict', { param: 'external_id' }), { status: 400 });
    }
    throw new ApiError('external_id_conflict', { param: 'external_id' });
  }
}

function commitPayment(
  ctx: AppContext,
  key: ApiKeyRecord,
  input: CreatePaymentInput,
  relations: ResolvedRelations,
): PaymentRecord {
  const id = newPaymentId(ctx.decisions.paymentIds);
  const d = ctx.decisions;
  const payment: PaymentRecord = {
    id,
    businessId: key.businessId,
    env: key.env,
    status: 'PENDING',
    amount: d.amountEcho === 'two-decimals' ? formatCents(input.amountCents) : input.amount,
    amountCents: input.amountCents,
    description: input.description,
    merchantReference: input.merchantReference,
    externalId: input.externalId,
    metadata: input.metadata,
    // omittedDefaults decision: stored after the Live checks, so a default never makes a create fail.
    allowedMethods: input.allowedMethods ?? (d.omittedDefaults === 'all-values' ? [...PAYMENT_METHODS] : undefined),
    allowedChannels: input.allowedChannels ?? (d.omittedDefaults === 'all-values' ? [...COLLECTION_CHANNELS] : undefined),
    returnUrl: input.returnUrl,
    checkoutUrl: checkoutUrlFor(id, d),
    customerId: relations.customerId,
    orderId: relations.order?.id ?? null,
    createdAt: ctx.now(),
    paidAt: null,
    cancelledAt: null,
  };
  const stored = checkOf(STORED_PAYMENT, ctx.faults)(payment);
  ctx.state.payments.insert(stored);
  return stored;
}

/** The record the insert stores: the Payment as built. Its planted faults store something else. */
const STORED_PAYMENT: Step<PaymentRecord, PaymentRecord> = {
  name: 'the inserted record',
  check: (payment) => payment,
  faulty: {
    /* the insert's column list forgets merchant_reference, so it is stored (and answered) as null */
    'merchant-reference-dropped': (payment, next) => next({ ...payment, merchantReference: null }),
    /* checkout_url is stored as the hosted page's path, not an absolute URL */
    'checkout-url-relative': (payment, next) => next({ ...payment, checkoutUrl: new URL(payment.checkoutUrl).pathname }),
    /* checkout_url is built with the internal load balancer's http:// scheme */
    'checkout-url-plain-http': (payment, next) => next({ ...payment, checkoutUrl: payment.checkoutUrl.replace(/^https:/, 'http:') }),
    /* allowed_methods are stored (and answered) in lower case */
    'allowed-methods-echoed-lowercase': (payment, next) =>
      next(payment.allowedMethods === undefined ? payment : { ...payment, allowedMethods: payment.allowedMethods.map((m) => m.toLowerCase()) }),
    /* paid_at and cancelled_at default to created_at instead of null */
    'timestamps-default-to-created-at': (payment, next) => next({ ...payment, paidAt: payment.createdAt, cancelledAt: payment.createdAt }),
  },
};

/** orderDue 'pending-reserves': what the order's PENDING payments hold. */
function pendingCentsOf(ctx: AppContext, key: ApiKeyRecord, order: Order): bigint {
  let cents = 0n;
  for (const p of ctx.state.payments.ascending(key.businessId, key.env)) if (p.orderId === order.id && p.status === 'PENDING') cents += p.amountCents;
  return cents;
}

function businessOf(ctx: AppContext, key: ApiKeyRecord) {
  const business = ctx.state.businesses.get(key.businessId);
  if (business === undefined) throw new Error(`key ${key.label} names an unknown business`);
  return business;
}
