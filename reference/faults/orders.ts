/**
 * Planted faults of the orders area (customer_id and order_id of createPayment), each
 * a realistic bug in reference/order-checks.ts.
 */

export const ORDERS_FAULTS = {
  'customers-looked-up-in-live':
    'Customers are looked up in the Live environment whatever the key: a Test key\'s own customer is refused with invalid_customer.',
  'foreign-customer-accepted':
    'Customers are looked up across businesses: another business\'s customer_id is accepted.',
  'foreign-order-accepted':
    'Orders are looked up across businesses: another business\'s order_id is accepted.',
  'order-customer-ignored':
    'With an order_id, customer_id is ignored (neither checked nor compared with the order\'s customer).',
  'order-due-not-enforced':
    'The amount is never compared with the order\'s remaining due.',
  'order-due-boundary-rejected':
    'The due check uses >= instead of >: an amount equal to the remaining due is refused with exceeds_order_due.',
  'cancelled-order-accepted':
    'The order\'s cancellation is never checked: a cancelled order takes new payments.',
} as const satisfies Readonly<Record<string, string>>;
