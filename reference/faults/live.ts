/**
 * Planted faults of the live area (the UX-level checks of Live creation), each a realistic bug
 * in reference/live-readiness.ts.
 */

export const LIVE_FAULTS = {
  'live-detection-not-checked':
    'The detection-readiness check is skipped: a business without an enabled, bridge-ready receiving method creates Live Payments.',
  'live-credit-not-checked':
    'Service Credit is not checked at Live creation.',
  'live-method-check-ignores-enabled':
    'A disabled receiving number still counts as usable for its method.',
  'live-channel-check-counts-unready-receivers':
    'Requested channels are matched against enabled numbers whose bridge is not ready.',
  'live-ready-requires-every-receiver':
    'Readiness requires every receiving number to be enabled and bridge-ready (every instead of some): a ready business with one idle number cannot create.',
} as const satisfies Readonly<Record<string, string>>;
