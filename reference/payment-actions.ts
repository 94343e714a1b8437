/**
 * getPayment, cancelPayment, the test helpers, and the control API's reversal
 * (spec, "Endpoints", "States and transitions", Rules 5 and 7).
 */
import type { AppContext } from './context.ts';
import { ApiError } from './errors.ts';
import {
  applyTransition,
  assertTransitionAllowed,
  toPaymentResource,
  TRANSITIONS,
  type TransitionName,
} from './payments.ts';
import { jsonReply, type Reply } from './reply.ts';
import type { ApiKeyRecord, PaymentRecord, PaymentResource } from './types.ts';
import { emitEvent } from './webhooks/emit.ts';

/** Rule 5: the payment if it exists for the key's business and environment, else 404 payment_not_found. */
export function findVisiblePayment(ctx: AppContext, key: ApiKeyRecord, id: string): PaymentRecord {
  const payment = ctx.state.payments.findVisible(key.businessId, key.env, id);
  if (payment === undefined) throw new ApiError('payment_not_found', { param: 'id' });
  return payment;
}

export function getPayment(ctx: AppContext, key: ApiKeyRecord, id: string): Reply {
  return jsonReply(200, toPaymentResource(findVisiblePayment(ctx, key, id)));
}

/** POST /payments/{id}/cancel: PENDING → CANCELLED, either environment. */
export function cancelPayment(ctx: AppContext, key: ApiKeyRecord, id: string): Reply {
  return jsonReply(200, performTransition(ctx, findVisiblePayment(ctx, key, id), 'cancel'));
}

/** POST /test_helpers/payments/{id}/succeed: PENDING → PAID, Test keys only. */
export function simulatePaymentSucceeded(ctx: AppContext, key: ApiKeyRecord, id: string): Reply {
  requireTestKey(key);
  return jsonReply(200, performTransition(ctx, findVisiblePayment(ctx, key, id), 'succeed'));
}

/** POST /test_helpers/payments/{id}/cancel: PENDING → CANCELLED, Test keys only. */
export function simulatePaymentCancelled(ctx: AppContext, key: ApiKeyRecord, id: string): Reply {
  requireTestKey(key);
  return jsonReply(200, performTransition(ctx, findVisiblePayment(ctx, key, id), 'cancel'));
}

/** Control API: PAID → REVERSED in the service's records, any business or environment. */
export function reversePayment(ctx: AppContext, id: string): Reply {
  const payment = ctx.state.payments.getAny(id);
  if (payment === undefined) throw new ApiError('payment_not_found', { param: 'id' });
  return jsonReply(200, performTransition(ctx, payment, 'reverse'));
}

/** Rule 6, inside the operation too (app.ts answers it before): a Live key gets 404 not_found. */
function requireTestKey(key: ApiKeyRecord): void {
  if (key.env !== 'test') throw new ApiError('not_found');
}

/**
 * The move, its side effects and its event, all at one instant. `data.object` of the
 * event is the very representation the operation answers.
 */
export function performTransition(ctx: AppContext, payment: PaymentRecord, name: TransitionName): PaymentResource {
  assertTransitionAllowed(payment, name);
  const at = ctx.now();
  applyTransition(payment, name, at);
  updateOrderPaid(ctx, payment, name);
  const resource = toPaymentResource(payment);
  emitEvent(ctx, TRANSITIONS[name].event, { businessId: payment.businessId, env: payment.env, paymentId: payment.id }, resource, at);
  return resource;
}

/** An order's remaining due decreases when a payment on it becomes PAID, and comes back when it is REVERSED. */
function updateOrderPaid(ctx: AppContext, payment: PaymentRecord, name: TransitionName): void {
  if (payment.orderId === null) return;
  const order = ctx.state.orders.get(payment.orderId);
  if (order === undefined) return;
  if (name === 'succeed') order.paidCents += payment.amountCents;
  if (name === 'reverse') order.paidCents -= payment.amountCents;
}
