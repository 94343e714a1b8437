/**
 * The UX-level checks of Live creation (spec, "What the service does": "an enabled,
 * bridge-ready receiving method exists, and the business has enough Service Credit for
 * the next fee"; error table: the four Live-only 409s). Run for Live keys only, in order:
 * detection ready, credit, methods, channels. Test creates never reach them.
 */
import { ApiError } from './errors.ts';
import { NO_FAULTS, type FaultSet } from './faults.ts';
import type { Business, Receiver } from './types.ts';

export function checkLiveReadiness(
  business: Business,
  input: { allowedMethods: readonly string[] | undefined; allowedChannels: readonly string[] | undefined },
  faults: FaultSet = NO_FAULTS,
): void {
  if (faults.has('live-ready-requires-every-receiver') && !business.receivers.every((r) => r.enabled && r.bridgeReady)) {
    /* FAULT live-ready-requires-every-receiver: every() instead of some(): one disabled or unready number makes the whole business not ready */
    throw new ApiError('payment_detection_not_ready');
  }
  if (faults.has('live-detection-not-checked')) {
    /* FAULT live-detection-not-checked: the detection-readiness check is skipped: a business with no ready receiving method creates Live Payments */
  } else {
    checkDetectionReady(business);
  }
  if (faults.has('live-credit-not-checked')) {
    /* FAULT live-credit-not-checked: Service Credit is not checked at creation */
  } else {
    checkCredit(business);
  }
  if (faults.has('live-method-check-ignores-enabled') && input.allowedMethods !== undefined) {
    /* FAULT live-method-check-ignores-enabled: a disabled receiving number still counts as usable for its method */
    const allowed = input.allowedMethods;
    const usable = business.receivers.filter((r) => r.bridgeReady && allowed.includes(r.method));
    if (usable.length === 0) throw new ApiError('payment_method_unavailable', { param: 'allowed_methods' });
    checkChannels(usable, input.allowedChannels);
    return;
  }
  const usable = checkMethods(business, input.allowedMethods);
  if (faults.has('live-channel-check-counts-unready-receivers')) {
    /* FAULT live-channel-check-counts-unready-receivers: channels are matched against every enabled number of the allowed methods, bridge-ready or not */
    const enabled = business.receivers.filter((r) => r.enabled && (input.allowedMethods === undefined || input.allowedMethods.includes(r.method)));
    checkChannels(enabled, input.allowedChannels);
    return;
  }
  checkChannels(usable, input.allowedChannels);
}

/** Receiving numbers that can take money now. */
export function readyReceivers(business: Business): Receiver[] {
  return business.receivers.filter((r) => r.enabled && r.bridgeReady);
}

/** payment_detection_not_ready: no enabled, bridge-ready receiving method. */
export function checkDetectionReady(business: Business): void {
  if (readyReceivers(business).length === 0) throw new ApiError('payment_detection_not_ready');
}

/** insufficient_credit: Service Credit below the next fee. */
export function checkCredit(business: Business): void {
  if (business.creditCents < business.nextFeeCents) throw new ApiError('insufficient_credit');
}

/** payment_method_unavailable: allowed_methods given and none of them is ready. Returns the usable receivers. */
export function checkMethods(business: Business, allowedMethods: readonly string[] | undefined): Receiver[] {
  const ready = readyReceivers(business);
  if (allowedMethods === undefined) return ready;
  const usable = ready.filter((r) => allowedMethods.includes(r.method));
  if (usable.length === 0) throw new ApiError('payment_method_unavailable', { param: 'allowed_methods' });
  return usable;
}

/** payment_channel_unavailable: allowed_channels given and no usable receiver accepts any of them. */
export function checkChannels(usable: readonly Receiver[], allowedChannels: readonly string[] | undefined): void {
  if (allowedChannels === undefined) return;
  const accepted = usable.some((r) => r.channels.some((c) => allowedChannels.includes(c)));
  if (!accepted) throw new ApiError('payment_channel_unavailable', { param: 'allowed_channels' });
}

/** What A's Live side can receive, as the profile's `live_receiving` declares it. */
export function liveReceiving(business: Business): { methods: string[]; channels: string[] } {
  const ready = readyReceivers(business);
  const methods = [...new Set(ready.map((r) => r.method))];
  const channels = [...new Set(ready.flatMap((r) => r.channels))];
  return { methods, channels };
}
