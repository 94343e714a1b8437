/**
 * Per-key rate limiting (spec, "Limits": 429 `rate_limit_exceeded` with an integer
 * `Retry-After`). A fixed window per API key: the first request opens a window of
 * `windowMs`; at most `limit` requests are served in it; the rest are refused until the
 * window ends. Refused requests count too (they do not extend the window).
 *
 * The planted faults of this file are overrides named after the defect, in the `faulty` table of
 * the step they break (references/service/steps.ts says how an override replaces a check).
 */
import { ApiError } from './errors.ts';
import { NO_FAULTS, type FaultSet } from './faults.ts';
import { checkOf, type PlantingStep, type Step } from './steps.ts';
import type { WindowSpec } from './types.ts';

interface Window {
  startedAt: number;
  count: number;
}

export class FixedWindowLimiter {
  readonly #windows = new Map<string, Window>();

  /** Counts one request of `key`; throws 429 when over the limit. */
  take(
    key: string,
    spec: WindowSpec,
    now: number,
    faults: FaultSet = NO_FAULTS,
    businessId = '',
    retryAfter: 'remaining' | 'whole-window' = 'remaining',
  ): void {
    checkOf(ADMISSION, faults)({ windows: this.#windows, key, spec, now, faults, businessId, retryAfter });
  }
}

interface Take {
  readonly windows: Map<string, Window>;
  readonly key: string;
  readonly spec: WindowSpec;
  readonly now: number;
  readonly faults: FaultSet;
  readonly businessId: string;
  readonly retryAfter: 'remaining' | 'whole-window';
}

/** The key's window, opened anew when absent or over, with this request counted. */
function counted({ windows, key, spec, now }: Take): Window {
  let window = windows.get(key);
  if (window === undefined || now >= window.startedAt + spec.windowMs || now < window.startedAt) {
    window = { startedAt: now, count: 0 };
    windows.set(key, window);
  }
  window.count += 1;
  return window;
}

const ADMISSION: Step<Take, void> = {
  name: 'at most `limit` requests per key in a window; the rest are refused',
  check: (take) => {
    const window = counted(take);
    if (window.count > take.spec.limit) throw checkOf(REFUSAL, take.faults)({ window, spec: take.spec, now: take.now, retryAfter: take.retryAfter });
  },
  faulty: {
    'rate-limit-blocks-business': {
      does: 'While one key of a business is over its limit, every key of that business is refused.',
      breaks: ['LIMIT-PER-KEY'],
      violates: ['limits.rate-limit-per-key#per-key'],
      plant: (take, next) => {
        const block = take.windows.get(blockSlotOf(take.businessId));
        if (block !== undefined && take.now < block.startedAt) {
          throw new ApiError('rate_limit_exceeded', { headers: { 'Retry-After': String(Math.max(1, Math.ceil((block.startedAt - take.now) / 1000))) } });
        }
        try {
          next(take);
        } catch (refusal) {
          const window = take.windows.get(take.key);
          if (refusal instanceof ApiError && window !== undefined) take.windows.set(blockSlotOf(take.businessId), { startedAt: window.startedAt + take.spec.windowMs, count: 0 });
          throw refusal;
        }
      },
    },
  },
};

interface Refusal {
  readonly window: Window;
  readonly spec: WindowSpec;
  readonly now: number;
  readonly retryAfter: 'remaining' | 'whole-window';
}

/** What a request over the limit is refused with (faults outermost last: the last one listed wins). */
const REFUSAL: Step<Refusal, Error> = {
  name: '429 rate_limit_exceeded with an integer Retry-After, rounded up',
  check: ({ window, spec, now, retryAfter }) =>
    new ApiError('rate_limit_exceeded', {
      headers: { 'Retry-After': String(retryAfter === 'whole-window' ? Math.max(1, Math.ceil(spec.windowMs / 1000)) : retryAfterSeconds(window, spec, now)) },
    }),
  faulty: {
    'rate-limit-retry-after-floor': {
      does: 'Retry-After is rounded down, so a client that waits it comes back before the window ends and is refused again.',
      breaks: ['LIMIT-RECOVERY'],
      violates: ['limits.rate-limit-per-key#recovery'],
      plant: ({ window, spec, now }) =>
        new ApiError('rate_limit_exceeded', { headers: { 'Retry-After': String(Math.floor((window.startedAt + spec.windowMs - now) / 1000)) } }),
    },
    'rate-limit-retry-after-http-date': {
      does: 'Retry-After is sent as an HTTP-date instead of an integer number of seconds.',
      breaks: ['LIMIT-RETRY-AFTER'],
      violates: ['limits.rate-limit-per-key#retry-after'],
      plant: ({ window, spec }) =>
        new ApiError('rate_limit_exceeded', { headers: { 'Retry-After': new Date(window.startedAt + spec.windowMs).toUTCString() } }),
    },
    'rate-limit-throws-plain-error': {
      does: 'The limiter throws a plain Error, so a key over its limit gets 500 internal_error instead of 429 rate_limit_exceeded.',
      breaks: ['LIMIT-RATE-429'],
      violates: ['limits.rate-limit-per-key#answer'],
      plant: ({ spec }) => new Error(`rate limit of ${spec.limit} per ${spec.windowMs} ms exceeded for a key`),
    },
  },
};

/** The window slot of a business (fault rate-limit-blocks-business), made only when that fault is on. */
function blockSlotOf(businessId: string): string {
  return `business\u0000${businessId}`;
}

/** Whole seconds (at least 1) until the window resets, rounded up. */
export function retryAfterSeconds(window: Window, spec: WindowSpec, now: number): number {
  const remainingMs = window.startedAt + spec.windowMs - now;
  return Math.max(1, Math.ceil(remainingMs / 1000));
}

/** The steps of this file that plant faults (references/service/fault-registry.ts reads their declarations). */
export const FAULTY_STEPS: readonly PlantingStep[] = [ADMISSION, REFUSAL];
