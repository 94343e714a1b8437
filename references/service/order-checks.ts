/**
 * customer_id and order_id of createPayment (spec, CreatePaymentRequest: "customer_id must
 * belong to the caller's business"; "order_id must exist for the caller's business; the
 * payment's customer must match the order's customer; amount must not exceed the order's
 * remaining due; the order must not be cancelled").
 *
 * Customers and orders belong to one business and one environment, like every other object.
 * Run in this order: customer, order exists, customer matches, order not cancelled, due.
 *
 * The planted faults of this file are overrides named after the defect, in the `faulty` table of
 * the step they break (references/service/steps.ts says how an override replaces a check).
 */
import { ApiError } from './errors.ts';
import { formatCents } from './decimal.ts';
import { NO_FAULTS, type FaultSet } from './faults.ts';
import { checkOf, type PlantingStep, type Step } from './steps.ts';
import type { ApiKeyRecord, Customer, Order } from './types.ts';

export interface RelationLookup {
  customers: ReadonlyMap<string, Customer>;
  orders: ReadonlyMap<string, Order>;
  /** orderDue decision 'pending-reserves': cents of the order's PENDING payments, held against its due. */
  reservedCents?: (order: Order) => bigint;
}

export interface ResolvedRelations {
  customerId: string | null;
  order: Order | null;
}

interface RelationsInput {
  readonly lookup: RelationLookup;
  readonly key: ApiKeyRecord;
  readonly customerId: string | null;
  readonly orderId: string | null;
  readonly amountCents: bigint;
  readonly faults: FaultSet;
}

export function checkRelations(
  lookup: RelationLookup,
  key: ApiKeyRecord,
  input: { customerId: string | null; orderId: string | null; amountCents: bigint },
  faults: FaultSet = NO_FAULTS,
): ResolvedRelations {
  return checkOf(RELATIONS, faults)({ lookup, key, ...input, faults });
}

const RELATIONS: Step<RelationsInput, ResolvedRelations> = {
  name: 'customer, order exists, customer matches, order not cancelled, due',
  check: ({ lookup, key, customerId, orderId, amountCents, faults }) => {
    const customer = checkOf(CUSTOMER, faults)({ lookup, key, id: customerId });
    if (orderId === null) return { customerId: customer, order: null };
    const order = checkOf(ORDER, faults)({ lookup, key, id: orderId });
    checkOrderCustomer(order, customer);
    checkOf(NOT_CANCELLED, faults)(order);
    checkOf(DUE, faults)({ amountCents, remaining: dueAfterReservations(order, lookup.reservedCents?.(order) ?? 0n) });
    // Without a customer_id the payment takes the order's customer.
    return { customerId: customer ?? order.customerId, order };
  },
  faulty: {
    'order-customer-ignored': {
      does: 'With an order_id, customer_id is ignored (neither checked nor compared with the order\'s customer).',
      breaks: ['ORDER-CUSTOMER-MISMATCH'],
      violates: ['create.field.order_id#customer-match'],
      plant: (input, next) => next(input.orderId !== null ? { ...input, customerId: null } : input),
    },
  },
};

interface ById {
  readonly lookup: RelationLookup;
  readonly key: ApiKeyRecord;
  readonly id: string;
}

/** invalid_customer: the id names no customer of this business and environment (faults outermost last). */
const CUSTOMER: Step<Omit<ById, 'id'> & { readonly id: string | null }, string | null> = {
  name: "invalid_customer: the customer is the business's, in the key's environment",
  check: ({ lookup, key, id }) => {
    if (id === null) return null;
    const customer = lookup.customers.get(id);
    if (customer === undefined || customer.businessId !== key.businessId || customer.env !== key.env) {
      throw new ApiError('invalid_customer', { param: 'customer_id' });
    }
    return customer.id;
  },
  faulty: {
    'customers-looked-up-in-live': {
      does: 'Customers are looked up in the Live environment whatever the key: a Test key\'s own customer is refused with ' +
        'invalid_customer.',
      breaks: ['ORDER-CUSTOMER-ACCEPTED', 'ORDER-WITHIN-DUE', 'ORDER-EXCEEDS-DUE'],
      violates: ['create.field.customer_id#own-accepted'],
      plant: (input, next) => {
        const customer = input.id === null ? undefined : input.lookup.customers.get(input.id);
        if (customer !== undefined && customer.businessId === input.key.businessId) throw new ApiError('invalid_customer', { param: 'customer_id' });
        return next(input);
      },
    },
    'customer-environment-not-checked': {
      does: 'Customers are looked up by business only: a Test key can name the business\'s Live customer (and a Live key a Test one).',
      breaks: ['ORDER-INVALID-CUSTOMER'],
      violates: ['create.field.customer_id#same-environment'],
      plant: (input, next) => {
        const customer = input.id === null ? undefined : input.lookup.customers.get(input.id);
        return customer !== undefined && customer.businessId === input.key.businessId ? customer.id : next(input);
      },
    },
    'foreign-customer-accepted': {
      does: 'Customers are looked up across businesses: another business\'s customer_id is accepted.',
      breaks: ['ORDER-INVALID-CUSTOMER'],
      violates: ['create.field.customer_id#foreign-rejected'],
      plant: (input, next) => {
        const customer = input.id === null ? undefined : input.lookup.customers.get(input.id);
        return customer !== undefined ? customer.id : next(input);
      },
    },
  },
};

/** order_not_found (400): the id names no order of this business and environment. */
const ORDER: Step<ById, Order> = {
  name: "order_not_found: the order is the business's, in the key's environment",
  check: ({ lookup, key, id }) => {
    const order = lookup.orders.get(id);
    if (order === undefined || order.businessId !== key.businessId || order.env !== key.env) {
      throw new ApiError('order_not_found', { param: 'order_id' });
    }
    return order;
  },
  faulty: {
    'order-environment-not-checked': {
      does: 'Orders are looked up by business only: a Test key can attach a Payment to the business\'s Live order (and a Live key to ' +
        'a Test one).',
      breaks: ['ORDER-NOT-FOUND'],
      violates: ['create.field.order_id#same-environment'],
      plant: (input, next) => {
        const order = input.lookup.orders.get(input.id);
        return order !== undefined && order.businessId === input.key.businessId ? order : next(input);
      },
    },
    'live-key-accepts-test-order': {
      does: 'A Live key\'s order lookup ignores the environment: a Live create can pay against the business\'s Test order (the ' +
        'Test key is still refused a Live order).',
      breaks: ['ORDER-NOT-FOUND'],
      violates: ['create.field.order_id#same-environment'],
      plant: (input, next) => {
        const order = input.lookup.orders.get(input.id);
        return input.key.env === 'live' && order !== undefined && order.businessId === input.key.businessId ? order : next(input);
      },
    },
    'foreign-order-accepted': {
      does: 'Orders are looked up across businesses: another business\'s order_id is accepted.',
      breaks: ['ORDER-NOT-FOUND'],
      violates: ['create.field.order_id#must-exist'],
      plant: (input, next) => input.lookup.orders.get(input.id) ?? next(input),
    },
  },
};

/** order_customer_mismatch: a customer_id was given and differs from the order's customer. */
export function checkOrderCustomer(order: Order, customerId: string | null): void {
  if (customerId !== null && customerId !== order.customerId) {
    throw new ApiError('order_customer_mismatch', { param: 'customer_id' });
  }
}

/** order_cancelled (409). */
const NOT_CANCELLED: Step<Order, void> = {
  name: 'order_cancelled: the order is not cancelled',
  check: (order) => {
    if (order.cancelled) throw new ApiError('order_cancelled', { param: 'order_id' });
  },
  faulty: {
    'cancelled-order-accepted': {
      does: 'The order\'s cancellation is never checked: a cancelled order takes new payments.',
      breaks: ['ORDER-CANCELLED'],
      violates: ['create.field.order_id#not-cancelled'],
      plant: () => undefined,
    },
  },
};

/** The order's remaining due less what its PENDING payments reserve, never below zero. */
function dueAfterReservations(order: Order, reservedCents: bigint): bigint {
  const afterReservations = remainingDueCents(order) - reservedCents;
  return afterReservations > 0n ? afterReservations : 0n;
}

/** exceeds_order_due: amount > remaining due, compared as cents (never floats); faults outermost last. */
const DUE: Step<{ readonly amountCents: bigint; readonly remaining: bigint }, void> = {
  name: "exceeds_order_due: the amount is at most the order's remaining due",
  check: ({ amountCents, remaining }) => {
    if (amountCents > remaining) {
      throw new ApiError('exceeds_order_due', {
        param: 'amount',
        message: `amount exceeds the order's remaining due of ${formatCents(remaining)}.`,
      });
    }
  },
  faulty: {
    'order-due-boundary-rejected': {
      does: 'The due check uses >= instead of >: an amount equal to the remaining due is refused with exceeds_order_due.',
      breaks: ['ORDER-WITHIN-DUE'],
      violates: ['create.field.order_id#within-due'],
      plant: (input, next) => {
        if (input.amountCents >= input.remaining) throw new ApiError('exceeds_order_due', { param: 'amount' });
        next(input);
      },
    },
    'order-due-not-enforced': {
      does: 'The amount is never compared with the order\'s remaining due.',
      breaks: ['ORDER-EXCEEDS-DUE'],
      violates: ['create.field.order_id#exceeds-due'],
      plant: () => undefined,
    },
  },
};

/** What is still due: the original due less what PAID payments on the order cover, never below zero. */
export function remainingDueCents(order: Order): bigint {
  const remaining = order.dueCents - order.paidCents;
  return remaining > 0n ? remaining : 0n;
}

/** The steps of this file that plant faults (references/service/fault-registry.ts reads their declarations). */
export const FAULTY_STEPS: readonly PlantingStep[] = [RELATIONS, CUSTOMER, ORDER, NOT_CANCELLED, DUE];
