/**
 * The UX-level checks of Live creation (spec, "What the service does": "an enabled,
 * bridge-ready receiving method exists, and the business has enough Service Credit for
 * the next fee"; error table: the four Live-only 409s). Run for Live keys only, in order:
 * detection ready, credit, methods, channels. Test creates never reach them.
 *
 * The planted faults of this file are overrides named after the defect, in the `faulty` table of
 * the step they break (references/service/steps.ts says how an override replaces a check).
 */
import { ApiError } from './errors.ts';
import { NO_FAULTS, type FaultSet } from './faults.ts';
import { checkOf, type PlantingStep, type Step } from './steps.ts';
import type { Business, Receiver } from './types.ts';

interface LiveInput {
  readonly allowedMethods: readonly string[] | undefined;
  readonly allowedChannels: readonly string[] | undefined;
}

export function checkLiveReadiness(business: Business, input: LiveInput, faults: FaultSet = NO_FAULTS): void {
  checkOf(DETECTION, faults)(business);
  checkOf(CREDIT, faults)(business);
  checkOf(RECEIVING, faults)({ business, ...input });
}

const DETECTION: Step<Business, void> = {
  name: 'payment_detection_not_ready: no enabled, bridge-ready receiving method',
  check: checkDetectionReady,
  faulty: {
    'live-detection-not-checked': {
      does: 'The detection-readiness check is skipped: a business without an enabled, bridge-ready receiving method creates Live Payments.',
      breaks: ['LIVE-NOT-READY'],
      violates: ['overview.live-ux-check#receiving-method', 'errors.code.payment_detection_not_ready'],
      plant: () => undefined,
    },
    'live-ready-requires-every-receiver': {
      does: 'Readiness requires every receiving number to be enabled and bridge-ready (every instead of some): a ready business with one idle number cannot create.',
      breaks: ['LIVE-READY-CREATES', 'LIVE-METHOD-UNAVAILABLE', 'LIVE-CHANNEL-UNAVAILABLE'],
      violates: ['overview.live-ux-check#nothing-else'],
      plant: (business, next) => {
        if (!business.receivers.every((r) => r.enabled && r.bridgeReady)) throw new ApiError('payment_detection_not_ready');
        next(business);
      },
    },
  },
};

const CREDIT: Step<Business, void> = {
  name: 'insufficient_credit: Service Credit below the next fee',
  check: checkCredit,
  faulty: {
    'live-credit-not-checked': {
      does: 'Service Credit is not checked at Live creation.',
      breaks: ['LIVE-NO-CREDIT'],
      violates: ['overview.live-ux-check#credit', 'errors.code.insufficient_credit'],
      plant: () => undefined,
    },
  },
};

/** The allowed methods have a usable receiver, and one of those accepts an allowed channel (faults outermost last). */
const RECEIVING: Step<LiveInput & { readonly business: Business }, void> = {
  name: 'payment_method_unavailable, then payment_channel_unavailable',
  check: ({ business, allowedMethods, allowedChannels }) => checkChannels(checkMethods(business, allowedMethods), allowedChannels),
  faulty: {
    'live-channel-check-counts-unready-receivers': {
      does: 'Requested channels are matched against enabled numbers whose bridge is not ready.',
      breaks: ['LIVE-CHANNEL-UNAVAILABLE'],
      violates: ['errors.code.payment_channel_unavailable'],
      plant: ({ business, allowedMethods, allowedChannels }) => {
        checkMethods(business, allowedMethods);
        const enabled = business.receivers.filter((r) => r.enabled && (allowedMethods === undefined || allowedMethods.includes(r.method)));
        checkChannels(enabled, allowedChannels);
      },
    },
    'live-method-check-ignores-enabled': {
      does: 'A disabled receiving number still counts as usable for its method.',
      breaks: ['LIVE-METHOD-UNAVAILABLE'],
      violates: ['errors.code.payment_method_unavailable'],
      plant: (input, next) => {
        const allowed = input.allowedMethods;
        if (allowed === undefined) return next(input);
        const usable = input.business.receivers.filter((r) => r.bridgeReady && allowed.includes(r.method));
        if (usable.length === 0) throw new ApiError('payment_method_unavailable', { param: 'allowed_methods' });
        checkChannels(usable, input.allowedChannels);
      },
    },
  },
};

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

/** The steps of this file that plant faults (references/service/fault-registry.ts reads their declarations). */
export const FAULTY_STEPS: readonly PlantingStep[] = [DETECTION, CREDIT, RECEIVING];
