/**
 * getPayment, cancelPayment, the test helpers, and the control API's reversal
 * (spec, "Endpoints", "States and transitions", Rules 5 and 7).
 *
 * Each operation is a small named step (the lookup, the answer of a missing Payment, each move,
 * the event's object and type); the planted faults of this file are overrides named after the
 * defect, in the `faulty` table of the step they break (references/service/steps.ts says how).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { GET_FIELDS } from './payment-fields.ts';
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
import { checkOf, type PlantingStep, type Step } from './steps.ts';
import type { ApiKeyRecord, EventType, PaymentRecord, PaymentResource } from './types.ts';
import { emitEvent } from './webhooks/emit.ts';

interface Lookup {
  readonly ctx: AppContext;
  readonly key: ApiKeyRecord;
  readonly id: string;
  /** The lookup of an operation that changes the Payment (cancel, the helpers), not a read. */
  readonly write: boolean;
}

/** A lookup that also finds the business's Payments of the other environment, for keys of `env` and reads or writes only. */
function crossesEnvironment(env: 'test' | 'live', write: boolean): (input: Lookup, next: (input: Lookup) => PaymentRecord | undefined) => PaymentRecord | undefined {
  return (input, next) => {
    if (input.key.env !== env || input.write !== write) return next(input);
    const any = input.ctx.state.payments.getAny(input.id);
    return any !== undefined && any.businessId === input.key.businessId ? any : next(input);
  };
}

/** Rule 5: the Payment of that id if it belongs to the key's business and environment. */
const VISIBLE: Step<Lookup, PaymentRecord | undefined> = {
  name: "the Payment is visible to the key's business and environment",
  check: ({ ctx, key, id }) => ctx.state.payments.findVisible(key.businessId, key.env, id),
  faulty: {
    'unshaped-payment-id-answers-400': {
      does: 'An id that does not look like a Payment id (`pay_` + 24 characters) is refused with 400 invalid_request on get, cancel ' +
        'and the helpers, a status those operations do not list (they answer 404).',
      breaks: ['RESP-STATUS-LISTED'],
      violates: ['statuses.getPayment', 'statuses.payment-actions'],
      plant: (input, next) => {
        if (!/^pay_[A-Za-z0-9]{24}$/.test(input.id)) throw new ApiError('invalid_request', { param: 'id', message: 'id is not a valid payment id.' });
        return next(input);
      },
    },
    'environment-not-isolated': {
      does: 'Looking a Payment up by id checks the business but not the environment: Test and Live keys read and cancel each other\'s ' +
        'Payments.',
      breaks: ['ISO-TEST-LIVE-GET', 'ISO-TEST-LIVE-WRITE'],
      violates: ['overview.environments-isolated', 'rules.payment-not-found#other-environment'],
      plant: (input, next) => {
        const any = input.ctx.state.payments.getAny(input.id);
        return any !== undefined && any.businessId === input.key.businessId ? any : next(input);
      },
    },
    'test-key-reads-live-payments': {
      does: 'A Test key\'s GET finds the business\'s Live Payments too (the read replica is not split by environment); writes and ' +
        'Live keys are isolated.',
      breaks: ['ISO-TEST-LIVE-GET'],
      violates: ['overview.test-live-cannot-see-each-other#test-key-cannot-see-live'],
      plant: crossesEnvironment('test', false),
    },
    'live-key-reads-test-payments': {
      does: 'A Live key\'s GET finds the business\'s Test Payments too; writes and Test keys are isolated.',
      breaks: ['ISO-TEST-LIVE-GET'],
      violates: ['overview.test-live-cannot-see-each-other#live-key-cannot-see-test', 'rules.test-live-never-see-each-other#live-key'],
      plant: crossesEnvironment('live', false),
    },
    'test-key-cancels-live-payments': {
      does: 'A Test key\'s cancel finds the business\'s Live Payments too (the write path looks up by business only); reads are isolated.',
      breaks: ['ISO-TEST-LIVE-WRITE'],
      violates: ['overview.test-live-cannot-see-each-other#test-key-cannot-modify-live'],
      plant: crossesEnvironment('test', true),
    },
    'live-key-cancels-test-payments': {
      does: 'A Live key\'s cancel or helper call finds the business\'s Test Payments too; reads are isolated.',
      breaks: ['ISO-TEST-LIVE-WRITE'],
      violates: ['overview.test-live-cannot-see-each-other#live-key-cannot-modify-test'],
      plant: crossesEnvironment('live', true),
    },
    'unknown-id-write-answers-conflict': {
      does: 'A cancel or helper call on an id that exists nowhere answers 409 invalid_transition (the status check runs on the empty ' +
        'record before the existence check); reads, and ids of another business or environment, answer 404 payment_not_found.',
      breaks: ['ISO-UNKNOWN-ID'],
      violates: ['rules.payment-not-found#unknown-id'],
      plant: (input, next) => {
        if (input.write && input.ctx.state.payments.getAny(input.id) === undefined) throw new ApiError('invalid_transition', { param: 'id' });
        return next(input);
      },
    },
    'other-business-visible': {
      does: 'Looking a Payment up by id checks the environment but not the business: another business reads, cancels and completes it.',
      breaks: ['ISO-OTHER-BUSINESS', 'ISO-KEY-ALONE'],
      violates: ['rules.payment-not-found#other-business'],
      plant: (input, next) => {
        const any = input.ctx.state.payments.getAny(input.id);
        return any !== undefined && any.env === input.key.env ? any : next(input);
      },
    },
  },
};

/** What a Payment that is not visible answers. */
const NOT_FOUND: Step<void, ApiError> = {
  name: 'a missing Payment answers 404 payment_not_found',
  check: () => new ApiError('payment_not_found', { param: 'id' }),
  faulty: {
    'payment-not-found-generic-404': {
      does: 'A missing Payment falls through to the generic 404 not_found instead of payment_not_found.',
      breaks: ['ISO-UNKNOWN-ID', 'ISO-OTHER-BUSINESS', 'ISO-TEST-LIVE-GET', 'ISO-TEST-LIVE-WRITE', 'ISO-KEY-ALONE'],
      violates: ['errors.code.payment_not_found'],
      plant: () => new ApiError('not_found'),
    },
  },
};

/** Rule 5: the payment if it exists for the key's business and environment, else 404 payment_not_found. */
export function findVisiblePayment(ctx: AppContext, key: ApiKeyRecord, id: string, write = true): PaymentRecord {
  const payment = checkOf(VISIBLE, ctx.faults)({ ctx, key, id, write });
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
    'get-livemode-always-false': {
      does: 'getPayment hard-codes livemode false, so a Live Payment read with the Live key claims to be a Test one.',
      breaks: ['RESP-PAYMENT-LIVEMODE', 'HOOK-ONE-EVENT-PER-TRANSITION'],
      violates: ['payment.field.livemode#meaning', 'overview.environment.live'],
      plant: ({ ctx, payment }) => jsonReply(200, { ...toPaymentResource(payment, ctx.decisions), livemode: false }),
    },
  },
};

export function getPayment(ctx: AppContext, key: ApiKeyRecord, id: string): Reply {
  const action = { ctx, payment: findVisiblePayment(ctx, key, id, false) };
  const reply = checkOf(GET, ctx.faults)(action);
  const fields = checkOf(GET_FIELDS, ctx.faults);
  // Without a field fault switched on the step is its check, which passes the reply on: no copy.
  return fields === GET_FIELDS.check ? reply : fields({ ...action, reply });
}

/** A fault's move answered from a copy of the Payment: the answer shows the move, the stored Payment never makes it (and no event goes out). */
function answeredFromCopy(name: TransitionName): (action: Action) => PaymentResource {
  return ({ ctx, payment }) => {
    assertTransitionAllowed(payment, name);
    const copy = { ...payment };
    applyTransition(copy, name, ctx.now());
    return toPaymentResource(copy, ctx.decisions);
  };
}

/** A fault's move stored through a path that skips the outbox: the Payment moves, no event goes out. */
function movedWithoutEvent(name: TransitionName): (action: Action) => PaymentResource {
  return ({ ctx, payment }) => {
    assertTransitionAllowed(payment, name);
    applyTransition(payment, name, ctx.now());
    return toPaymentResource(payment, ctx.decisions);
  };
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
    'cancel-allowed-from-paid': {
      does: 'cancelPayment only refuses a CANCELLED Payment: a PAID (or REVERSED) one is moved to CANCELLED.',
      breaks: ['TRANS-ILLEGAL', 'TRANS-REVERSED'],
      violates: ['states.illegal-409#cancel'],
      plant: (action, next) =>
        action.payment.status === 'PAID' || action.payment.status === 'REVERSED' ? forceCancelled(action) : next(action),
    },
    'refused-cancel-emits-event': {
      does: 'The outbox write comes before the state check: a cancel refused 409 invalid_transition still emits payment.cancelled.',
      breaks: ['HOOK-REFUSED-NO-EVENT'],
      violates: ['states.illegal-409#no-change'],
      plant: (action, next) => {
        const { ctx, payment } = action;
        if (payment.status !== 'PENDING') emitEvent(ctx, 'payment.cancelled', { businessId: payment.businessId, env: payment.env, paymentId: payment.id }, toPaymentResource(payment, ctx.decisions), ctx.now());
        return next(action);
      },
    },
    'cancel-not-persisted': {
      does: 'cancelPayment answers 200 CANCELLED from a copy of the Payment; the stored Payment stays PENDING.',
      breaks: ['TRANS-CANCEL'],
      violates: ['states.cancel#pending-only'],
      plant: answeredFromCopy('cancel'),
    },
    'cancel-emits-no-event': {
      does: 'cancelPayment writes CANCELLED through a path that skips the outbox: no payment.cancelled event (the helper cancel still ' +
        'emits one).',
      breaks: ['HOOK-EVENT-CANCELLED'],
      violates: ['states.cancel#event', 'emits.cancelPayment'],
      plant: movedWithoutEvent('cancel'),
    },
    'cancel-forgets-cancelled-at': {
      does: 'cancelPayment moves the Payment to CANCELLED but never records cancelled_at.',
      breaks: ['TRANS-CANCEL'],
      violates: ['states.cancel#cancelled-at'],
      plant: (action, next) => {
        const resource = next(action);
        action.payment.cancelledAt = null;
        return { ...resource, cancelled_at: null };
      },
    },
  },
};

/** How long the planted check-then-set waits between its check and its write (a round trip to a database). */
const CHECK_TO_SET_MS = 100;

/**
 * cancelPayment under concurrency: the PENDING check and the write at one instant (no await between
 * them), so of a cancel and a helper racing on one PENDING Payment one moves it and the other is refused.
 */
const CANCEL_AT_ONCE: Step<Action, PaymentResource | Promise<PaymentResource>> = {
  name: 'cancel: the PENDING check and the write at one instant',
  check: (action) => checkOf(CANCEL, action.ctx.faults)(action),
  faulty: {
    'transition-check-then-set': {
      does: 'cancelPayment reads the Payment, checks it is PENDING, then writes CANCELLED after an await (no conditional update): a ' +
        'cancel racing the succeed helper on one PENDING Payment answers 200 although the helper made it PAID in between.',
      breaks: ['IDEM-CONCURRENT-UNIQUE', 'MODEL-SEQUENCES'],
      violates: ['states.illegal-409#cancel'],
      plant: async ({ ctx, payment }) => {
        assertTransitionAllowed(payment, 'cancel');
        await sleep(CHECK_TO_SET_MS);
        return writeTransition(ctx, payment, 'cancel');
      },
    },
  },
};

/** POST /payments/{id}/cancel: PENDING → CANCELLED, either environment. */
export function cancelPayment(ctx: AppContext, key: ApiKeyRecord, id: string): Reply | Promise<Reply> {
  const answer = checkOf(CANCEL_AT_ONCE, ctx.faults)({ ctx, payment: findVisiblePayment(ctx, key, id) });
  return answer instanceof Promise ? answer.then((resource) => jsonReply(200, resource)) : jsonReply(200, answer);
}

const SUCCEED: Step<Action, PaymentResource> = {
  name: 'succeed: PENDING → PAID, paid_at recorded',
  check: ({ ctx, payment }) => performTransition(ctx, payment, 'succeed'),
  faulty: {
    'succeed-on-paid-answers-200': {
      does: 'The succeed helper treats a PAID Payment as already done and answers 200 with it instead of 409 invalid_transition.',
      breaks: ['TRANS-ILLEGAL'],
      violates: ['states.illegal-409#helpers'],
      plant: (action, next) =>
        action.payment.status === 'PAID' ? toPaymentResource(action.payment, action.ctx.decisions) : next(action),
    },
    'succeed-not-persisted': {
      does: 'The succeed helper answers 200 PAID from a copy of the Payment; the stored Payment stays PENDING, so the Test checkout ' +
        'is never completed.',
      breaks: ['TRANS-HELPER-SUCCEED'],
      violates: ['overview.test-checkout-by-helpers'],
      plant: answeredFromCopy('succeed'),
    },
    'succeed-forgets-paid-at': {
      does: 'The succeed helper moves the Payment to PAID but never records paid_at.',
      breaks: ['TRANS-HELPER-SUCCEED'],
      violates: ['states.helper-succeed#paid-at'],
      plant: (action, next) => {
        const resource = next(action);
        action.payment.paidAt = null;
        return { ...resource, paid_at: null };
      },
    },
  },
};

/** POST /test_helpers/payments/{id}/succeed: PENDING → PAID (Test keys only: app.ts answers a Live key before, Rule 6). */
export function simulatePaymentSucceeded(ctx: AppContext, key: ApiKeyRecord, id: string): Reply {
  return jsonReply(200, checkOf(SUCCEED, ctx.faults)({ ctx, payment: findVisiblePayment(ctx, key, id) }));
}

const HELPER_CANCEL: Step<Action, PaymentResource> = {
  name: 'the cancel helper: PENDING → CANCELLED, stored, with its event',
  check: ({ ctx, payment }) => performTransition(ctx, payment, 'cancel'),
  faulty: {
    'helper-cancel-ignores-state': {
      does: 'The cancel helper does not check the state: any Payment, PAID, CANCELLED or REVERSED, is (re)cancelled and its ' +
        'cancelled_at overwritten.',
      breaks: ['TRANS-ILLEGAL', 'TRANS-REVERSED'],
      violates: ['states.illegal-409#helpers'],
      plant: (action, next) => (action.payment.status !== 'PENDING' ? forceCancelled(action) : next(action)),
    },
    'helper-cancel-not-persisted': {
      does: 'The cancel helper answers 200 CANCELLED from a copy of the Payment; the stored Payment stays PENDING.',
      breaks: ['TRANS-HELPER-CANCEL', 'TRANS-ILLEGAL'],
      violates: ['states.helper-cancel#cancelled'],
      plant: answeredFromCopy('cancel'),
    },
    'helper-cancel-emits-no-event': {
      does: 'The cancel helper writes CANCELLED through a path that skips the outbox: no payment.cancelled event.',
      breaks: ['HOOK-EVENT-HELPER-CANCELLED', 'HOOK-AT-LEAST-ONCE'],
      violates: ['states.helper-cancel#event', 'emits.simulatePaymentCancelled'],
      plant: movedWithoutEvent('cancel'),
    },
  },
};

/** POST /test_helpers/payments/{id}/cancel: PENDING → CANCELLED (Test keys only: app.ts answers a Live key before, Rule 6). */
export function simulatePaymentCancelled(ctx: AppContext, key: ApiKeyRecord, id: string): Reply {
  return jsonReply(200, checkOf(HELPER_CANCEL, ctx.faults)({ ctx, payment: findVisiblePayment(ctx, key, id) }));
}

const REVERSE: Step<Action, PaymentResource> = {
  name: 'reverse: PAID → REVERSED in the stored record',
  check: ({ ctx, payment }) => performTransition(ctx, payment, 'reverse'),
  faulty: {
    'reversal-not-persisted': {
      does: 'The reversal answers REVERSED but the stored Payment stays PAID.',
      breaks: ['TRANS-REVERSED', 'TRANS-ILLEGAL', 'MODEL-SEQUENCES'],
      violates: ['states.reversed#reversed'],
      plant: (action, next) => {
        const resource = next(action);
        action.payment.status = 'PAID';
        return resource;
      },
    },
  },
};

/** Control API: PAID → REVERSED in the service's records, any business or environment. */
export function reversePayment(ctx: AppContext, id: string): Reply {
  const payment = ctx.state.payments.getAny(id);
  if (payment === undefined) throw new ApiError('payment_not_found', { param: 'id' });
  return jsonReply(200, checkOf(REVERSE, ctx.faults)({ ctx, payment }));
}


/**
 * The move, its side effects and its event, all at one instant. `data.object` of the
 * event is the very representation the operation answers.
 */
export function performTransition(ctx: AppContext, payment: PaymentRecord, name: TransitionName): PaymentResource {
  assertTransitionAllowed(payment, name);
  return writeTransition(ctx, payment, name);
}

/** The move once allowed: its write, side effects and event (performTransition checks first, at the same instant). */
function writeTransition(ctx: AppContext, payment: PaymentRecord, name: TransitionName): PaymentResource {
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
  checkOf(EMIT, ctx.faults)({ ctx, type: eventType, payment, object: eventObject, at });
  return resource;
}

interface Emission {
  readonly ctx: AppContext;
  readonly type: Parameters<typeof emitEvent>[1];
  readonly payment: PaymentRecord;
  readonly object: unknown;
  readonly at: number;
}

/** The transition's one event (its id generated once for this logical event). */
const EMIT: Step<Emission, void> = {
  name: 'the transition emits its event once',
  check: ({ ctx, type, payment, object, at }) => {
    emitEvent(ctx, type, { businessId: payment.businessId, env: payment.env, paymentId: payment.id }, object, at);
  },
  faulty: {
    'transition-event-emitted-twice': {
      does: 'The transition\'s event is written to the outbox twice (by the request and by the state-change trigger): one ' +
        'payment.cancelled or payment.paid goes out as two events with two ids.',
      breaks: ['HOOK-ONE-EVENT-PER-TRANSITION', 'HOOK-REFUSED-NO-EVENT', 'HOOK-RETRY-SAME-BODY'],
      plant: (e, next) => {
        next(e);
        next(e);
      },
    },
    'reversed-event-object-without-metadata': {
      does: 'payment.reversed is rendered from the ledger\'s copy of the Payment, which keeps no metadata: its data.object says ' +
        'metadata {} while the Payment\'s other events and GET show the merchant\'s metadata.',
      breaks: ['HOOK-ONE-EVENT-PER-TRANSITION', 'HOOK-EVENT-REVERSED'],
      violates: ['event.data-object-is-get#after-transition'],
      plant: (e, next) => next(e.type === 'payment.reversed' ? { ...e, object: { ...(e.object as Record<string, unknown>), metadata: {} } } : e),
    },
    'reversal-event-emitted-twice': {
      does: 'A reversal, recorded by the ledger and by the payment row, emits payment.reversed twice: two event ids for one PAID → ' +
        'REVERSED move.',
      breaks: ['HOOK-ONE-EVENT-PER-TRANSITION'],
      plant: (e, next) => {
        next(e);
        if (e.type === 'payment.reversed') next(e);
      },
    },
  },
};

interface Move {
  readonly payment: PaymentRecord;
  readonly name: TransitionName;
  readonly at: number;
}

const MOVE: Step<Move, void> = {
  name: 'the move and its timestamps, at the instant of the request',
  check: ({ payment, name, at }) => applyTransition(payment, name, at),
  faulty: {
    'paid-at-truncated-to-minute': {
      does: 'paid_at is recorded truncated to the whole minute, so it reads earlier than created_at.',
      breaks: ['TRANS-HELPER-SUCCEED'],
      violates: ['payment.field.paid_at#meaning'],
      plant: (move, next) => {
        next(move);
        if (move.name === 'succeed') move.payment.paidAt = Math.floor(move.at / 60_000) * 60_000;
      },
    },
    'cancelled-at-truncated-to-minute': {
      does: 'cancelled_at is recorded truncated to the whole minute, so it reads earlier than created_at.',
      breaks: ['TRANS-CANCEL', 'TRANS-HELPER-CANCEL'],
      violates: ['payment.field.cancelled_at#meaning'],
      plant: (move, next) => {
        next(move);
        if (move.name === 'cancel') move.payment.cancelledAt = Math.floor(move.at / 60_000) * 60_000;
      },
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
    'event-snapshot-before-transition': {
      does: 'The event of a transition snapshots the Payment before the move is applied (PENDING in payment.paid, payment.cancelled; ' +
        'PAID in payment.reversed).',
      breaks: ['HOOK-EVENT-CANCELLED', 'HOOK-EVENT-PAID', 'HOOK-EVENT-HELPER-CANCELLED', 'HOOK-EVENT-REVERSED'],
      violates: ['event.data-object-is-get#after-transition'],
      plant: (moving, next) => {
        const before = toPaymentResource(moving.payment, moving.ctx.decisions);
        return { ...next(moving), eventObject: before };
      },
    },
  },
};

const EVENT_TYPE: Step<TransitionName, EventType> = {
  name: "the event type of the move (succeed: payment.paid)",
  check: (name) => TRANSITIONS[name].event,
  faulty: {
    'succeed-emits-payment-succeeded': {
      does: 'The succeed helper emits the type payment.succeeded instead of payment.paid.',
      breaks: ['HOOK-EVENT-PAID', 'HOOK-AT-LEAST-ONCE'],
      violates: ['states.helper-succeed#event', 'events.type.payment.paid', 'emits.simulatePaymentSucceeded'],
      plant: (name, next) => (name === 'succeed' ? ('payment.succeeded' as EventType) : next(name)),
    },
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

/** The steps of this file that plant faults (references/service/fault-registry.ts reads their declarations). */
export const FAULTY_STEPS: readonly PlantingStep[] = [
  VISIBLE, NOT_FOUND, GET, CANCEL_AT_ONCE, CANCEL, SUCCEED, HELPER_CANCEL, REVERSE, MOVE, EVENT_OBJECT, EVENT_TYPE, EMIT];
