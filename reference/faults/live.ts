/**
 * Planted faults of the live area (the UX-level checks of Live creation), each a realistic bug
 * in reference/live-readiness.ts, with the rule ids it must make fail.
 */
import type { FaultDefinition } from '../faults.ts';

export const LIVE_FAULTS = {
  'live-detection-not-checked': {
    description: 'The detection-readiness check is skipped: a business without an enabled, bridge-ready receiving method creates Live Payments.',
    breaks: ['LIVE-NOT-READY'],
  },
  'live-credit-not-checked': {
    description: 'Service Credit is not checked at Live creation.',
    breaks: ['LIVE-NO-CREDIT'],
  },
  'live-method-check-ignores-enabled': {
    description: 'A disabled receiving number still counts as usable for its method.',
    breaks: ['LIVE-METHOD-UNAVAILABLE'],
  },
  'live-channel-check-counts-unready-receivers': {
    description: 'Requested channels are matched against enabled numbers whose bridge is not ready.',
    breaks: ['LIVE-CHANNEL-UNAVAILABLE'],
  },
  'live-ready-requires-every-receiver': {
    description: 'Readiness requires every receiving number to be enabled and bridge-ready (every instead of some): a ready business with one idle number cannot create.',
    breaks: ['LIVE-READY-CREATES', 'LIVE-METHOD-UNAVAILABLE', 'LIVE-CHANNEL-UNAVAILABLE'],
  },
} satisfies Record<string, FaultDefinition>;
