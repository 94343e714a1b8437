/**
 * Planted faults of the orders area (customer_id and order_id of createPayment), each
 * a realistic bug in reference/order-checks.ts, with the rule ids it must make fail.
 */
import type { FaultDefinition } from '../faults.ts';

export const ORDERS_FAULTS = {
  'customers-looked-up-in-live': {
    description: 'Customers are looked up in the Live environment whatever the key: a Test key\'s own customer is refused with invalid_customer.',
    breaks: ['ORDER-CUSTOMER-ACCEPTED', 'ORDER-WITHIN-DUE', 'ORDER-EXCEEDS-DUE'],
  },
  'foreign-customer-accepted': {
    description: 'Customers are looked up across businesses: another business\'s customer_id is accepted.',
    breaks: ['ORDER-INVALID-CUSTOMER'],
  },
  'foreign-order-accepted': {
    description: 'Orders are looked up across businesses: another business\'s order_id is accepted.',
    breaks: ['ORDER-NOT-FOUND'],
  },
  'order-customer-ignored': {
    description: 'With an order_id, customer_id is ignored (neither checked nor compared with the order\'s customer).',
    breaks: ['ORDER-CUSTOMER-MISMATCH'],
  },
  'order-due-not-enforced': {
    description: 'The amount is never compared with the order\'s remaining due.',
    breaks: ['ORDER-EXCEEDS-DUE'],
  },
  'order-due-boundary-rejected': {
    description: 'The due check uses >= instead of >: an amount equal to the remaining due is refused with exceeds_order_due.',
    breaks: ['ORDER-WITHIN-DUE'],
  },
  'cancelled-order-accepted': {
    description: 'The order\'s cancellation is never checked: a cancelled order takes new payments.',
    breaks: ['ORDER-CANCELLED'],
  },
} satisfies Record<string, FaultDefinition>;
