/**
 * customer_id and order_id of createPayment (spec, CreatePaymentRequest: "customer_id must
 * belong to the caller's business"; "order_id must exist for the caller's business; the
 * payment's customer must match the order's customer; amount must not exceed the order's
 * remaining due; the order must not be cancelled").
 *
 * Customers and orders belong to one business and one environment, like every other object.
 * Run in this order: customer, order exists, customer matches, order not cancelled, due.
 */
import { ApiError } from './errors.ts';
import { formatCents } from './decimal.ts';
import { NO_FAULTS, type FaultSet } from './faults.ts';
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

export function checkRelations(
  lookup: RelationLookup,
  key: ApiKeyRecord,
  input: { customerId: string | null; orderId: string | null; amountCents: bigint },
  faults: FaultSet = NO_FAULTS,
): ResolvedRelations {
  if (faults.has('order-customer-ignored') && input.orderId !== null) {
    /* FAULT order-customer-ignored: with an order_id, customer_id is ignored (neither checked nor compared): the payment silently takes the order's customer */
    input = { ...input, customerId: null };
  }
  const customer = checkCustomer(lookup, key, input.customerId, faults);
  if (input.orderId === null) return { customerId: customer, order: null };
  const order = checkOrderExists(lookup, key, input.orderId, faults);
  checkOrderCustomer(order, customer);
  checkOrderNotCancelled(order, faults);
  checkOrderDue(order, input.amountCents, faults, lookup.reservedCents?.(order) ?? 0n);
  // Without a customer_id the payment takes the order's customer.
  return { customerId: customer ?? order.customerId, order };
}

/** invalid_customer: the id names no customer of this business and environment. */
export function checkCustomer(lookup: RelationLookup, key: ApiKeyRecord, customerId: string | null, faults: FaultSet = NO_FAULTS): string | null {
  if (customerId === null) return null;
  const customer = lookup.customers.get(customerId);
  if (faults.has('foreign-customer-accepted') && customer !== undefined) {
    /* FAULT foreign-customer-accepted: customers are looked up across businesses: another business's customer is accepted */
    return customer.id;
  }
  if (faults.has('customers-looked-up-in-live') && customer !== undefined && customer.businessId === key.businessId) {
    /* FAULT customers-looked-up-in-live: customers are looked up in the Live environment whatever the key: a Test key's own customer is refused */
    throw new ApiError('invalid_customer', { param: 'customer_id' });
  }
  if (customer === undefined || customer.businessId !== key.businessId || customer.env !== key.env) {
    throw new ApiError('invalid_customer', { param: 'customer_id' });
  }
  return customer.id;
}

/** order_not_found (400): the id names no order of this business and environment. */
export function checkOrderExists(lookup: RelationLookup, key: ApiKeyRecord, orderId: string, faults: FaultSet = NO_FAULTS): Order {
  const order = lookup.orders.get(orderId);
  if (faults.has('foreign-order-accepted') && order !== undefined) {
    /* FAULT foreign-order-accepted: orders are looked up across businesses: another business's order is found */
    return order;
  }
  if (order === undefined || order.businessId !== key.businessId || order.env !== key.env) {
    throw new ApiError('order_not_found', { param: 'order_id' });
  }
  return order;
}

/** order_customer_mismatch: a customer_id was given and differs from the order's customer. */
export function checkOrderCustomer(order: Order, customerId: string | null): void {
  if (customerId !== null && customerId !== order.customerId) {
    throw new ApiError('order_customer_mismatch', { param: 'customer_id' });
  }
}

/** order_cancelled (409). */
export function checkOrderNotCancelled(order: Order, faults: FaultSet = NO_FAULTS): void {
  if (faults.has('cancelled-order-accepted')) {
    /* FAULT cancelled-order-accepted: the order's cancellation is never checked */
    return;
  }
  if (order.cancelled) throw new ApiError('order_cancelled', { param: 'order_id' });
}

/** exceeds_order_due: amount > remaining due, compared as cents (never floats). */
export function checkOrderDue(order: Order, amountCents: bigint, faults: FaultSet = NO_FAULTS, reservedCents = 0n): void {
  const afterReservations = remainingDueCents(order) - reservedCents;
  const remaining = afterReservations > 0n ? afterReservations : 0n;
  if (faults.has('order-due-not-enforced')) {
    /* FAULT order-due-not-enforced: the amount is never compared with the order's remaining due */
    return;
  }
  if (faults.has('order-due-boundary-rejected') && amountCents >= remaining) {
    /* FAULT order-due-boundary-rejected: >= instead of >: paying exactly the remaining due is refused */
    throw new ApiError('exceeds_order_due', { param: 'amount' });
  }
  if (amountCents > remaining) {
    throw new ApiError('exceeds_order_due', {
      param: 'amount',
      message: `amount exceeds the order's remaining due of ${formatCents(remaining)}.`,
    });
  }
}

/** What is still due: the original due less what PAID payments on the order cover, never below zero. */
export function remainingDueCents(order: Order): bigint {
  const remaining = order.dueCents - order.paidCents;
  return remaining > 0n ? remaining : 0n;
}
