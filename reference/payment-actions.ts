/**
 * getPayment, cancelPayment, the test helpers, and the control API's reversal
 * (spec, "Endpoints", "States and transitions", Rules 5 and 7).
 */
import type { AppContext } from './context.ts';
import { ApiError } from './errors.ts';
import {
  applyTransition,
  assertTransitionAllowed,
  paymentJson,
  toPaymentResource,
  TRANSITIONS,
  type TransitionName,
} from './payments.ts';
import { jsonReply, type Reply } from './reply.ts';
import type { ApiKeyRecord, EventType, PaymentRecord, PaymentResource } from './types.ts';
import { emitEvent } from './webhooks/emit.ts';

/** Rule 5: the payment if it exists for the key's business and environment, else 404 payment_not_found. */
export function findVisiblePayment(ctx: AppContext, key: ApiKeyRecord, id: string): PaymentRecord {
  if (ctx.faults.has('unshaped-payment-id-answers-400') && !/^pay_[A-Za-z0-9]{24}$/.test(id)) {
    /* FAULT unshaped-payment-id-answers-400: an id not shaped like ours is refused as malformed (400), a status get/cancel/helpers do not list */
    throw new ApiError('invalid_request', { param: 'id', message: 'id is not a valid payment id.' });
  }
  if (ctx.faults.has('environment-not-isolated')) {
    /* FAULT environment-not-isolated: the lookup checks the business but not the environment: Test and Live keys see each other's Payments */
    const any = ctx.state.payments.getAny(id);
    if (any !== undefined && any.businessId === key.businessId) return any;
  }
  if (ctx.faults.has('other-business-visible')) {
    /* FAULT other-business-visible: the lookup checks the environment but not the business: any business's Payment is found by id */
    const any = ctx.state.payments.getAny(id);
    if (any !== undefined && any.env === key.env) return any;
  }
  const payment = ctx.state.payments.findVisible(key.businessId, key.env, id);
  if (payment === undefined && ctx.faults.has('payment-not-found-generic-404')) {
    /* FAULT payment-not-found-generic-404: a missing Payment falls through to the framework's generic 404 not_found */
    throw new ApiError('not_found');
  }
  if (payment === undefined) throw new ApiError('payment_not_found', { param: 'id' });
  return payment;
}

export function getPayment(ctx: AppContext, key: ApiKeyRecord, id: string): Reply {
  const payment = findVisiblePayment(ctx, key, id);
  if (ctx.faults.has('get-livemode-always-false')) {
    /* FAULT get-livemode-always-false: the GET serialiser hard-codes livemode false, Live Payments included */
    const resource = toPaymentResource(payment, ctx.decisions);
    return jsonReply(200, { ...resource, livemode: false });
  }
  // The Payment's kept bytes (payments.ts): the read path serialises nothing.
  return { status: 200, body: paymentJson(payment, ctx.decisions) };
}

/** POST /payments/{id}/cancel: PENDING → CANCELLED, either environment. */
export function cancelPayment(ctx: AppContext, key: ApiKeyRecord, id: string): Reply {
  const payment = findVisiblePayment(ctx, key, id);
  if (ctx.faults.has('cancel-allowed-from-paid') && (payment.status === 'PAID' || payment.status === 'REVERSED')) {
    /* FAULT cancel-allowed-from-paid: only CANCELLED is refused; a PAID or REVERSED Payment is moved to CANCELLED */
    payment.status = 'CANCELLED';
    payment.cancelledAt = ctx.now();
    return jsonReply(200, toPaymentResource(payment, ctx.decisions));
  }
  const resource = performTransition(ctx, payment, 'cancel');
  if (ctx.faults.has('cancel-forgets-cancelled-at')) {
    /* FAULT cancel-forgets-cancelled-at: the move is made but cancelled_at is never recorded */
    payment.cancelledAt = null;
    return jsonReply(200, { ...resource, cancelled_at: null });
  }
  return jsonReply(200, resource);
}

/** POST /test_helpers/payments/{id}/succeed: PENDING → PAID, Test keys only. */
export function simulatePaymentSucceeded(ctx: AppContext, key: ApiKeyRecord, id: string): Reply {
  requireTestKey(key);
  const payment = findVisiblePayment(ctx, key, id);
  if (ctx.faults.has('succeed-on-paid-answers-200') && payment.status === 'PAID') {
    /* FAULT succeed-on-paid-answers-200: an already PAID Payment counts as done and is answered 200 instead of 409 */
    return jsonReply(200, toPaymentResource(payment, ctx.decisions));
  }
  const resource = performTransition(ctx, payment, 'succeed');
  if (ctx.faults.has('succeed-forgets-paid-at')) {
    /* FAULT succeed-forgets-paid-at: the move is made but paid_at is never recorded */
    payment.paidAt = null;
    return jsonReply(200, { ...resource, paid_at: null });
  }
  return jsonReply(200, resource);
}

/** POST /test_helpers/payments/{id}/cancel: PENDING → CANCELLED, Test keys only. */
export function simulatePaymentCancelled(ctx: AppContext, key: ApiKeyRecord, id: string): Reply {
  requireTestKey(key);
  const payment = findVisiblePayment(ctx, key, id);
  if (ctx.faults.has('helper-cancel-ignores-state') && payment.status !== 'PENDING') {
    /* FAULT helper-cancel-ignores-state: the state is not checked; any Payment is (re)cancelled, cancelled_at overwritten */
    payment.status = 'CANCELLED';
    payment.cancelledAt = ctx.now();
    return jsonReply(200, toPaymentResource(payment, ctx.decisions));
  }
  if (ctx.faults.has('helper-cancel-not-persisted')) {
    /* FAULT helper-cancel-not-persisted: the move is applied to a copy that is answered; the stored Payment stays PENDING */
    assertTransitionAllowed(payment, 'cancel');
    const copy = { ...payment };
    applyTransition(copy, 'cancel', ctx.now());
    return jsonReply(200, toPaymentResource(copy, ctx.decisions));
  }
  if (ctx.faults.has('helper-cancel-emits-no-event')) {
    /* FAULT helper-cancel-emits-no-event: the helper writes CANCELLED through a path that skips the outbox: no payment.cancelled */
    assertTransitionAllowed(payment, 'cancel');
    applyTransition(payment, 'cancel', ctx.now());
    return jsonReply(200, toPaymentResource(payment, ctx.decisions));
  }
  return jsonReply(200, performTransition(ctx, payment, 'cancel'));
}

/** Control API: PAID → REVERSED in the service's records, any business or environment. */
export function reversePayment(ctx: AppContext, id: string): Reply {
  const payment = ctx.state.payments.getAny(id);
  if (payment === undefined) throw new ApiError('payment_not_found', { param: 'id' });
  const resource = performTransition(ctx, payment, 'reverse');
  if (ctx.faults.has('reversal-not-persisted')) {
    /* FAULT reversal-not-persisted: the reversal is answered REVERSED but the stored Payment stays PAID */
    payment.status = 'PAID';
  }
  return jsonReply(200, resource);
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
  const before = ctx.faults.has('event-snapshot-before-transition') ? toPaymentResource(payment, ctx.decisions) : null;
  applyTransition(payment, name, at);
  if (ctx.faults.has('cancelled-at-truncated-to-minute') && name === 'cancel') {
    /* FAULT cancelled-at-truncated-to-minute: cancelled_at is stored truncated to the whole minute, so it reads before created_at */
    payment.cancelledAt = Math.floor(at / 60_000) * 60_000;
  }
  updateOrderPaid(ctx, payment, name);
  const resource = toPaymentResource(payment, ctx.decisions);
  let eventObject: PaymentResource = resource;
  if (ctx.faults.has('event-snapshot-before-transition') && before !== null) {
    /* FAULT event-snapshot-before-transition: the event snapshots the Payment as it was before the move */
    eventObject = before;
  }
  let eventType: EventType = TRANSITIONS[name].event;
  if (ctx.faults.has('succeed-emits-payment-succeeded') && name === 'succeed') {
    /* FAULT succeed-emits-payment-succeeded: the succeed helper's event is typed payment.succeeded, not payment.paid */
    eventType = 'payment.succeeded' as EventType;
  }
  emitEvent(ctx, eventType, { businessId: payment.businessId, env: payment.env, paymentId: payment.id }, eventObject, at);
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
