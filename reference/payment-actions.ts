/**
 * getPayment, cancelPayment, the test helpers, and the control API's reversal
 * (spec, "Endpoints", "States and transitions", Rules 5 and 7).
 *
 * Each operation is a small named step (the lookup, the answer of a missing Payment, each move,
 * the event's object and type); the planted faults of this file are overrides named after the
 * defect, in the `faulty` table of the step they break (reference/steps.ts says how).
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
import { checkOf, type Step } from './steps.ts';
import type { ApiKeyRecord, EventType, PaymentRecord, PaymentResource } from './types.ts';
import { emitEvent } from './webhooks/emit.ts';

interface Lookup {
  readonly ctx: AppContext;
  readonly key: ApiKeyRecord;
  readonly id: string;
}

/** Rule 5: the Payment of that id if it belongs to the key's business and environment. */
const VISIBLE: Step<Lookup, PaymentRecord | undefined> = {
  name: "the Payment is visible to the key's business and environment",
  check: ({ ctx, key, id }) => ctx.state.payments.findVisible(key.businessId, key.env, id),
  faulty: {
    /* an id not shaped like ours is refused as malformed (400), a status get/cancel/helpers do not list */
    'unshaped-payment-id-answers-400': (input, next) => {
      if (!/^pay_[A-Za-z0-9]{24}$/.test(input.id)) throw new ApiError('invalid_request', { param: 'id', message: 'id is not a valid payment id.' });
      return next(input);
    },
    /* the lookup checks the business but not the environment: Test and Live keys see each other's Payments */
    'environment-not-isolated': (input, next) => {
      const any = input.ctx.state.payments.getAny(input.id);
      return any !== undefined && any.businessId === input.key.businessId ? any : next(input);
    },
    /* the lookup checks the environment but not the business: any business's Payment is found by id */
    'other-business-visible': (input, next) => {
      const any = input.ctx.state.payments.getAny(input.id);
      return any !== undefined && any.env === input.key.env ? any : next(input);
    },
  },
};

/** What a Payment that is not visible answers. */
const NOT_FOUND: Step<void, ApiError> = {
  name: 'a missing Payment answers 404 payment_not_found',
  check: () => new ApiError('payment_not_found', { param: 'id' }),
  faulty: {
    /* a missing Payment falls through to the framework's generic 404 not_found */
    'payment-not-found-generic-404': () => new ApiError('not_found'),
  },
};

/** Rule 5: the payment if it exists for the key's business and environment, else 404 payment_not_found. */
export function findVisiblePayment(ctx: AppContext, key: ApiKeyRecord, id: string): PaymentRecord {
  const payment = checkOf(VISIBLE, ctx.faults)({ ctx, key, id });
  if (payment === undefined) throw checkOf(NOT_FOUND, ctx.faults)();
  return payment;
}

/** An operation on one found Payment. */
interface Action {
  readonly ctx: AppContext;
  readonly payment: PaymentRecord;
}

const GET: Step<Action, Reply> = {
  name: "the Payment's kept representation",
  // The Payment's kept bytes (payments.ts): the read path serialises nothing.
  check: ({ ctx, payment }) => ({ status: 200, body: paymentJson(payment, ctx.decisions) }),
  faulty: {
    /* the GET serialiser hard-codes livemode false, Live Payments included */
    'get-livemode-always-false': ({ ctx, payment }) => jsonReply(200, { ...toPaymentResource(payment, ctx.decisions), livemode: false }),
  },
};

export function getPayment(ctx: AppContext, key: ApiKeyRecord, id: string): Reply {
  return checkOf(GET, ctx.faults)({ ctx, payment: findVisiblePayment(ctx, key, id) });
}

/** A Payment moved to CANCELLED without the transition table (what the state-blind faults do). */
function forceCancelled({ ctx, payment }: Action): PaymentResource {
  payment.status = 'CANCELLED';
  payment.cancelledAt = ctx.now();
  return toPaymentResource(payment, ctx.decisions);
}

const CANCEL: Step<Action, PaymentResource> = {
  name: 'cancel: PENDING → CANCELLED, cancelled_at recorded',
  check: ({ ctx, payment }) => performTransition(ctx, payment, 'cancel'),
  faulty: {
    /* only CANCELLED is refused; a PAID or REVERSED Payment is moved to CANCELLED */
    'cancel-allowed-from-paid': (action, next) =>
      action.payment.status === 'PAID' || action.payment.status === 'REVERSED' ? forceCancelled(action) : next(action),
    /* the outbox write comes before the state check: a refused cancel still emits payment.cancelled */
    'refused-cancel-emits-event': (action, next) => {
      const { ctx, payment } = action;
      if (payment.status !== 'PENDING') emitEvent(ctx, 'payment.cancelled', { businessId: payment.businessId, env: payment.env, paymentId: payment.id }, toPaymentResource(payment, ctx.decisions), ctx.now());
      return next(action);
    },
    /* the move is made but cancelled_at is never recorded */
    'cancel-forgets-cancelled-at': (action, next) => {
      const resource = next(action);
      action.payment.cancelledAt = null;
      return { ...resource, cancelled_at: null };
    },
  },
};

/** POST /payments/{id}/cancel: PENDING → CANCELLED, either environment. */
export function cancelPayment(ctx: AppContext, key: ApiKeyRecord, id: string): Reply {
  return jsonReply(200, checkOf(CANCEL, ctx.faults)({ ctx, payment: findVisiblePayment(ctx, key, id) }));
}

const SUCCEED: Step<Action, PaymentResource> = {
  name: 'succeed: PENDING → PAID, paid_at recorded',
  check: ({ ctx, payment }) => performTransition(ctx, payment, 'succeed'),
  faulty: {
    /* an already PAID Payment counts as done and is answered 200 instead of 409 */
    'succeed-on-paid-answers-200': (action, next) =>
      action.payment.status === 'PAID' ? toPaymentResource(action.payment, action.ctx.decisions) : next(action),
    /* the move is made but paid_at is never recorded */
    'succeed-forgets-paid-at': (action, next) => {
      const resource = next(action);
      action.payment.paidAt = null;
      return { ...resource, paid_at: null };
    },
  },
};

/** POST /test_helpers/payments/{id}/succeed: PENDING → PAID, Test keys only. */
export function simulatePaymentSucceeded(ctx: AppContext, key: ApiKeyRecord, id: string): Reply {
  requireTestKey(key);
  return jsonReply(200, checkOf(SUCCEED, ctx.faults)({ ctx, payment: findVisiblePayment(ctx, key, id) }));
}

const HELPER_CANCEL: Step<Action, PaymentResource> = {
  name: 'the cancel helper: PENDING → CANCELLED, stored, with its event',
  check: ({ ctx, payment }) => performTransition(ctx, payment, 'cancel'),
  faulty: {
    /* the state is not checked; any Payment is (re)cancelled, cancelled_at overwritten */
    'helper-cancel-ignores-state': (action, next) => (action.payment.status !== 'PENDING' ? forceCancelled(action) : next(action)),
    /* the move is applied to a copy that is answered; the stored Payment stays PENDING */
    'helper-cancel-not-persisted': ({ ctx, payment }) => {
      assertTransitionAllowed(payment, 'cancel');
      const copy = { ...payment };
      applyTransition(copy, 'cancel', ctx.now());
      return toPaymentResource(copy, ctx.decisions);
    },
    /* the helper writes CANCELLED through a path that skips the outbox: no payment.cancelled */
    'helper-cancel-emits-no-event': ({ ctx, payment }) => {
      assertTransitionAllowed(payment, 'cancel');
      applyTransition(payment, 'cancel', ctx.now());
      return toPaymentResource(payment, ctx.decisions);
    },
  },
};

/** POST /test_helpers/payments/{id}/cancel: PENDING → CANCELLED, Test keys only. */
export function simulatePaymentCancelled(ctx: AppContext, key: ApiKeyRecord, id: string): Reply {
  requireTestKey(key);
  return jsonReply(200, checkOf(HELPER_CANCEL, ctx.faults)({ ctx, payment: findVisiblePayment(ctx, key, id) }));
}

const REVERSE: Step<Action, PaymentResource> = {
  name: 'reverse: PAID → REVERSED in the stored record',
  check: ({ ctx, payment }) => performTransition(ctx, payment, 'reverse'),
  faulty: {
    /* the reversal is answered REVERSED but the stored Payment stays PAID */
    'reversal-not-persisted': (action, next) => {
      const resource = next(action);
      action.payment.status = 'PAID';
      return resource;
    },
  },
};

/** Control API: PAID → REVERSED in the service's records, any business or environment. */
export function reversePayment(ctx: AppContext, id: string): Reply {
  const payment = ctx.state.payments.getAny(id);
  if (payment === undefined) throw new ApiError('payment_not_found', { param: 'id' });
  return jsonReply(200, checkOf(REVERSE, ctx.faults)({ ctx, payment }));
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
  const { resource, eventObject } = checkOf(EVENT_OBJECT, ctx.faults)({
    ctx,
    payment,
    move: () => {
      checkOf(MOVE, ctx.faults)({ payment, name, at });
      updateOrderPaid(ctx, payment, name);
      return toPaymentResource(payment, ctx.decisions);
    },
  });
  const eventType = checkOf(EVENT_TYPE, ctx.faults)(name);
  emitEvent(ctx, eventType, { businessId: payment.businessId, env: payment.env, paymentId: payment.id }, eventObject, at);
  return resource;
}

interface Move {
  readonly payment: PaymentRecord;
  readonly name: TransitionName;
  readonly at: number;
}

const MOVE: Step<Move, void> = {
  name: 'the move and its timestamps, at the instant of the request',
  check: ({ payment, name, at }) => applyTransition(payment, name, at),
  faulty: {
    /* cancelled_at is stored truncated to the whole minute, so it reads before created_at */
    'cancelled-at-truncated-to-minute': (move, next) => {
      next(move);
      if (move.name === 'cancel') move.payment.cancelledAt = Math.floor(move.at / 60_000) * 60_000;
    },
  },
};

interface Moving extends Action {
  /** Makes the move; answers the Payment as it is after it. */
  readonly move: () => PaymentResource;
}

const EVENT_OBJECT: Step<Moving, { resource: PaymentResource; eventObject: PaymentResource }> = {
  name: "the event's data.object is the Payment after the move, as answered",
  check: ({ move }) => {
    const resource = move();
    return { resource, eventObject: resource };
  },
  faulty: {
    /* the event snapshots the Payment as it was before the move */
    'event-snapshot-before-transition': (moving, next) => {
      const before = toPaymentResource(moving.payment, moving.ctx.decisions);
      return { ...next(moving), eventObject: before };
    },
  },
};

const EVENT_TYPE: Step<TransitionName, EventType> = {
  name: "the event type of the move (succeed: payment.paid)",
  check: (name) => TRANSITIONS[name].event,
  faulty: {
    /* the succeed helper's event is typed payment.succeeded, not payment.paid */
    'succeed-emits-payment-succeeded': (name, next) => (name === 'succeed' ? ('payment.succeeded' as EventType) : next(name)),
  },
};
/** An order's remaining due decreases when a payment on it becomes PAID, and comes back when it is REVERSED. */
function updateOrderPaid(ctx: AppContext, payment: PaymentRecord, name: TransitionName): void {
  if (payment.orderId === null) return;
  const order = ctx.state.orders.get(payment.orderId);
  if (order === undefined) return;
  if (name === 'succeed') order.paidCents += payment.amountCents;
  if (name === 'reverse') order.paidCents -= payment.amountCents;
}
