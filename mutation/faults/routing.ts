/**
 * What must catch each planted fault of reference/faults/routing.ts: the catalogue rules that must fail (or warn, for a SHOULD rule).
 */
import type { ROUTING_FAULTS } from '../../reference/faults/routing.ts';
import type { ExpectationsOf } from './expectation.ts';

export const ROUTING_EXPECTED = {
  'unknown-route-answers-payment-not-found': { breaks: ['ROUTE-UNKNOWN-404', 'VERS-UNKNOWN-VERSION-404'] },
  'route-prefix-match': { breaks: ['ROUTE-UNKNOWN-404'] },
  'wrong-method-answers-404': { breaks: ['ROUTE-WRONG-METHOD-405'] },
  'delete-payment-cancels': { breaks: ['ROUTE-WRONG-METHOD-405'] },
  'no-allow-header-on-405': { breaks: ['ROUTE-ALLOW-HEADER'] },
} as const satisfies ExpectationsOf<typeof ROUTING_FAULTS>;
