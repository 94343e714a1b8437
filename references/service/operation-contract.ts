/**
 * Each operation's row of the spec's Endpoints table: the scope it requires and the success it
 * answers. The checks are the table itself (router.ts binds each operation's scope; each
 * operation builds its own answer); each planted fault here breaks one row of one operation, so
 * each row is shown checked on its own: the scope not checked for that operation alone, or its
 * success answered with another status or shape while everything else stays as it is.
 */
import type { Override } from '../seams/steps.ts';
import { jsonReply, type Reply } from './reply.ts';
import type { OperationId } from './router.ts';
import type { PlantingStep, Step } from './steps.ts';
import type { Scope } from './types.ts';

/** The scope `operation` requires, or null where the scope is not checked. */
export const OPERATION_SCOPE: Step<{ readonly operation: OperationId; readonly scope: Scope }, Scope | null> = {
  name: 'the scope the operation requires (Endpoints table)',
  check: ({ scope }) => scope,
  faulty: {
    'create-scope-not-checked': unscoped('createPayment', ['AUTH-WRITE-SCOPE-REQUIRED']),
    'list-scope-not-checked': unscoped('listPayments', ['AUTH-READ-SCOPE-REQUIRED']),
    'get-scope-not-checked': unscoped('getPayment', ['AUTH-READ-SCOPE-REQUIRED']),
    'cancel-scope-not-checked': unscoped('cancelPayment', ['AUTH-WRITE-SCOPE-REQUIRED']),
    'succeed-scope-not-checked': unscoped('simulatePaymentSucceeded', ['AUTH-WRITE-SCOPE-REQUIRED']),
    'helper-cancel-scope-not-checked': unscoped('simulatePaymentCancelled', ['AUTH-WRITE-SCOPE-REQUIRED']),
  },
};

function unscoped(operation: OperationId, rules: readonly string[]) {
  return {
    does: `${operation} is served without checking its scope (the route was added without its guard); every other operation checks its own.`,
    breaks: rules,
    violates: [`endpoints.op.${operation}#scope`],
    plant: ((input, next) => (input.operation === operation ? null : next(input))) as Override<{ readonly operation: OperationId; readonly scope: Scope }, Scope | null>,
  };
}

/** An operation's success as it goes out. */
export interface OperationReply {
  readonly operation: OperationId;
  readonly reply: Reply;
}

/** `operation`'s success answered by `alter`, the other operations as they are. */
function answered(operation: OperationId, alter: (reply: Reply) => Reply): Override<OperationReply, Reply> {
  return (input, next) => (input.operation === operation && input.reply.status < 300 ? alter(input.reply) : next(input));
}

/** A PaymentList answer's fields. */
const listOf = (reply: Reply) => JSON.parse(reply.body.toString('utf8')) as Record<string, unknown> & { data: unknown; has_more?: unknown };

const withStatus = (status: number) => (reply: Reply): Reply => ({ ...reply, status });

export const OPERATION_ANSWER: Step<OperationReply, Reply> = {
  name: "the operation's success answer (Endpoints table)",
  check: ({ reply }) => reply,
  faulty: {
    'create-answers-200': {
      does: 'createPayment answers its success with 200 (the framework default), not 201.',
      breaks: ['CREATE-VALID-ACCEPTED'],
      violates: ['endpoints.op.createPayment#answer'],
      plant: answered('createPayment', withStatus(200)),
    },
    'create-answer-without-checkout-url': {
      does: 'createPayment answers the Payment without checkout_url (the hosted session is attached after the answer is built); GET shows it.',
      breaks: ['RESP-PAYMENT-CHECKOUT-URL'],
      violates: ['overview.create-returns-checkout-url'],
      plant: answered('createPayment', (reply) => {
        const { checkout_url: _later, ...payment } = JSON.parse(reply.body.toString('utf8')) as Record<string, unknown>;
        return jsonReply(reply.status, payment);
      }),
    },
    'list-answers-bare-array': {
      does: 'listPayments answers the page as a bare JSON array of Payments, not a PaymentList.',
      breaks: ['RESP-LIST-SCHEMA'],
      violates: ['endpoints.op.listPayments#answer'],
      plant: answered('listPayments', (reply) => jsonReply(200, (JSON.parse(reply.body.toString('utf8')) as { data: unknown[] }).data)),
    },
    'list-object-capitalised': {
      does: 'listPayments answers object "List" (the class name), not "list".',
      breaks: ['RESP-LIST-SCHEMA'],
      violates: ['list.field.object#type'],
      plant: answered('listPayments', (reply) => jsonReply(200, { ...listOf(reply), object: 'List' })),
    },
    'list-data-keyed-by-id': {
      does: 'listPayments answers data as an object keyed by Payment id (a map), not an array of Payments.',
      breaks: ['RESP-LIST-SCHEMA'],
      violates: ['list.field.data#type'],
      plant: answered('listPayments', (reply) => {
        const list = listOf(reply);
        return jsonReply(200, { ...list, data: Object.fromEntries((list.data as Array<{ id: string }>).map((p) => [p.id, p])) });
      }),
    },
    'list-next-cursor-false': {
      does: 'listPayments answers next_cursor false on the last page (a boolean), not null or a string.',
      breaks: ['RESP-LIST-SCHEMA'],
      violates: ['list.field.next_cursor#type'],
      plant: answered('listPayments', (reply) => {
        const list = listOf(reply);
        return jsonReply(200, list.has_more === false ? { ...list, next_cursor: false } : list);
      }),
    },
    'get-answers-wrapped': {
      does: 'getPayment answers { "payment": Payment } (a wrapper object), not the Payment itself.',
      breaks: ['RESP-PAYMENT-SCHEMA', 'TRANS-CREATE-PENDING'],
      violates: ['endpoints.op.getPayment#answer'],
      plant: answered('getPayment', (reply) => jsonReply(200, { payment: JSON.parse(reply.body.toString('utf8')) })),
    },
    'cancel-answers-202': {
      does: 'cancelPayment answers 202 Accepted (as if the cancel were queued), not 200, though the Payment is CANCELLED.',
      breaks: ['TRANS-CANCEL'],
      violates: ['endpoints.op.cancelPayment#answer'],
      plant: answered('cancelPayment', withStatus(202)),
    },
    'succeed-answers-204': {
      does: 'The succeed helper answers 204 with no body, not 200 with the PAID Payment.',
      breaks: ['TRANS-HELPER-SUCCEED'],
      violates: ['endpoints.op.simulatePaymentSucceeded#answer'],
      plant: answered('simulatePaymentSucceeded', () => ({ status: 204, body: Buffer.alloc(0) })),
    },
    'helper-cancel-answers-202': {
      does: 'The cancel helper answers 202 Accepted, not 200, though the Payment is CANCELLED.',
      breaks: ['TRANS-HELPER-CANCEL'],
      violates: ['endpoints.op.simulatePaymentCancelled#answer'],
      plant: answered('simulatePaymentCancelled', withStatus(202)),
    },
  },
};

export const FAULTY_STEPS: readonly PlantingStep[] = [OPERATION_SCOPE, OPERATION_ANSWER];
