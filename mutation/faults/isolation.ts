/**
 * What must catch each planted fault of reference/faults/isolation.ts: the catalogue rules that must fail (or warn, for a SHOULD rule).
 */
import type { ISOLATION_FAULTS } from '../../reference/faults/isolation.ts';
import type { ExpectationsOf } from './expectation.ts';

export const ISOLATION_EXPECTED = {
  'environment-not-isolated': { breaks: ['ISO-TEST-LIVE-GET', 'ISO-TEST-LIVE-WRITE'] },
  'list-external-id-ignores-environment': { breaks: ['ISO-TEST-LIVE-LIST'] },
  'other-business-visible': { breaks: ['ISO-OTHER-BUSINESS', 'ISO-KEY-ALONE'] },
  'payment-not-found-generic-404': { breaks: ['ISO-UNKNOWN-ID', 'ISO-OTHER-BUSINESS', 'ISO-TEST-LIVE-GET', 'ISO-TEST-LIVE-WRITE', 'ISO-KEY-ALONE'] },
  'live-key-test-helpers-payment-not-found': { breaks: ['ISO-LIVE-KEY-TEST-HELPERS'] },
  'live-checks-in-test-mode': { breaks: ['ISO-TEST-NO-LIVE-409'] },
  'x-business-id-honoured': { breaks: ['ISO-KEY-ALONE'] },
} as const satisfies ExpectationsOf<typeof ISOLATION_FAULTS>;
