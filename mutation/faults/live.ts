/**
 * What must catch each planted fault of reference/faults/live.ts: the catalogue rules that must fail (or warn, for a SHOULD rule).
 */
import type { LIVE_FAULTS } from '../../reference/faults/live.ts';
import type { ExpectationsOf } from './expectation.ts';

export const LIVE_EXPECTED = {
  'live-detection-not-checked': { breaks: ['LIVE-NOT-READY'] },
  'live-credit-not-checked': { breaks: ['LIVE-NO-CREDIT'] },
  'live-method-check-ignores-enabled': { breaks: ['LIVE-METHOD-UNAVAILABLE'] },
  'live-channel-check-counts-unready-receivers': { breaks: ['LIVE-CHANNEL-UNAVAILABLE'] },
  'live-ready-requires-every-receiver': { breaks: ['LIVE-READY-CREATES', 'LIVE-METHOD-UNAVAILABLE', 'LIVE-CHANNEL-UNAVAILABLE'] },
} as const satisfies ExpectationsOf<typeof LIVE_FAULTS>;
