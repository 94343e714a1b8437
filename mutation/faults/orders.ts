/**
 * What must catch each planted fault of reference/faults/orders.ts: the catalogue rules that must fail (or warn, for a SHOULD rule).
 */
import type { ORDERS_FAULTS } from '../../reference/faults/orders.ts';
import type { ExpectationsOf } from './expectation.ts';

export const ORDERS_EXPECTED = {
  'customers-looked-up-in-live': { breaks: ['ORDER-CUSTOMER-ACCEPTED', 'ORDER-WITHIN-DUE', 'ORDER-EXCEEDS-DUE'] },
  'foreign-customer-accepted': { breaks: ['ORDER-INVALID-CUSTOMER'] },
  'foreign-order-accepted': { breaks: ['ORDER-NOT-FOUND'] },
  'order-customer-ignored': { breaks: ['ORDER-CUSTOMER-MISMATCH'] },
  'order-due-not-enforced': { breaks: ['ORDER-EXCEEDS-DUE'] },
  'order-due-boundary-rejected': { breaks: ['ORDER-WITHIN-DUE'] },
  'cancelled-order-accepted': { breaks: ['ORDER-CANCELLED'] },
} as const satisfies ExpectationsOf<typeof ORDERS_FAULTS>;
