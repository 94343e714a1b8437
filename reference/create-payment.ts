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
import type { ApiKeyRecord, PaymentRecord } from './types.ts';
import { parseJsonObjectBody, validateCreateRequest, type CreatePaymentInput } from './validate-create.ts';
import { emitEvent } from './webhooks/emit.ts';

export async function createPayment(
  ctx: AppContext,
  key: ApiKeyRecord,
  headers: IncomingHttpHeaders,
  body: RequestBody,
): Promise<Reply> {
  const idempotencyKey = readIdempotencyKey(headers['idempotency-key']);
  if (body.tooLarge) throw new ApiError('invalid_request', { message: 'The request body exceeds 1 MiB.' });
  if (idempotencyKey === null) return runCreate(ctx, key, headers['content-type'], body);

  const outcome = ctx.state.idempotency.begin(key.key, idempotencyKey, bodyFingerprint(body.bytes), ctx.now());
  if (outcome.kind === 'replay') {
    return { status: outcome.response.status, body: outcome.response.body, headers: { 'Idempotent-Replayed': 'true' } };
  }
  try {
    const reply = await runCreate(ctx, key, headers['content-type'], body);
    ctx.state.idempotency.complete(outcome.slot, { status: reply.status, body: reply.body });
    return reply;
  } catch (err) {
    ctx.state.idempotency.release(outcome.slot);
    throw err;
  }
}

async function runCreate(
  ctx: AppContext,
  key: ApiKeyRecord,
  contentType: string | undefined,
  body: RequestBody,
): Promise<Reply> {
  if (ctx.createDelayMs > 0) await sleep(ctx.createDelayMs);
  const input = validateCreateRequest(parseJsonObjectBody(contentType, body));
  const relations = checkRelations(ctx.state, key, input, ctx.faults);
  checkExternalIdUnique(ctx, key, input.externalId);
  if (key.env === 'live') checkLiveReadiness(businessOf(ctx, key), input);
  const payment = commitPayment(ctx, key, input, relations);
  const resource = toPaymentResource(payment);
  emitEvent(ctx, 'payment.created', { businessId: payment.businessId, env: payment.env, paymentId: payment.id }, resource, payment.createdAt);
  return jsonReply(201, resource);
}

/** Rule 4: an external_id already used in the same business and environment → 409. */
export function checkExternalIdUnique(ctx: AppContext, key: ApiKeyRecord, externalId: string | null): void {
  if (externalId === null) return;
  if (ctx.state.payments.findByExternalId(key.businessId, key.env, externalId) !== undefined) {
    throw new ApiError('external_id_conflict', { param: 'external_id' });
  }
}

function commitPayment(
  ctx: AppContext,
  key: ApiKeyRecord,
  input: CreatePaymentInput,
  relations: ResolvedRelations,
): PaymentRecord {
  const id = newPaymentId();
  const payment: PaymentRecord = {
    id,
    businessId: key.businessId,
    env: key.env,
    status: 'PENDING',
    amount: input.amount,
    amountCents: input.amountCents,
    description: input.description,
    merchantReference: input.merchantReference,
    externalId: input.externalId,
    metadata: input.metadata,
    allowedMethods: input.allowedMethods,
    allowedChannels: input.allowedChannels,
    returnUrl: input.returnUrl,
    checkoutUrl: checkoutUrlFor(id),
    customerId: relations.customerId,
    orderId: relations.order?.id ?? null,
    createdAt: ctx.now(),
    paidAt: null,
    cancelledAt: null,
  };
  ctx.state.payments.insert(payment);
  return payment;
}

function businessOf(ctx: AppContext, key: ApiKeyRecord) {
  const business = ctx.state.businesses.get(key.businessId);
  if (business === undefined) throw new Error(`key ${key.label} names an unknown business`);
  return business;
}
