/**
 * The UX-level checks of Live creation (spec, "What the service does": "an enabled,
 * bridge-ready receiving method exists, and the business has enough Service Credit for
 * the next fee"; error table: the four Live-only 409s). Run for Live keys only, in order:
 * detection ready, credit, methods, channels. Test creates never reach them.
 */
import { ApiError } from './errors.ts';
import type { Business, Receiver } from './types.ts';

export function checkLiveReadiness(
  business: Business,
  input: { allowedMethods: readonly string[] | undefined; allowedChannels: readonly string[] | undefined },
): void {
  checkDetectionReady(business);
  checkCredit(business);
  const usable = checkMethods(business, input.allowedMethods);
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
