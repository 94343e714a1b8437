/**
 * Per-key rate limiting (spec, "Limits": 429 `rate_limit_exceeded` with an integer
 * `Retry-After`). A fixed window per API key: the first request opens a window of
 * `windowMs`; at most `limit` requests are served in it; the rest are refused until the
 * window ends. Refused requests count too (they do not extend the window).
 */
import { ApiError } from './errors.ts';
import { NO_FAULTS, type FaultSet } from './faults.ts';
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
    const block = faults.has('rate-limit-blocks-business') ? this.#windows.get(blockSlotOf(businessId)) : undefined;
    if (block !== undefined && now < block.startedAt) {
      /* FAULT rate-limit-blocks-business: while one key of a business is limited, every key of that business is refused */
      throw new ApiError('rate_limit_exceeded', { headers: { 'Retry-After': String(Math.max(1, Math.ceil((block.startedAt - now) / 1000))) } });
    }
    let window = this.#windows.get(key);
    if (window === undefined || now >= window.startedAt + spec.windowMs || now < window.startedAt) {
      window = { startedAt: now, count: 0 };
      this.#windows.set(key, window);
    }
    window.count += 1;
    if (window.count > spec.limit && faults.has('rate-limit-throws-plain-error')) {
      /* FAULT rate-limit-throws-plain-error: the limiter throws a plain Error, which the server answers 500 internal_error */
      throw new Error(`rate limit of ${spec.limit} per ${spec.windowMs} ms exceeded for a key`);
    }
    if (window.count > spec.limit && faults.has('rate-limit-blocks-business')) {
      /* FAULT rate-limit-blocks-business: the key's limit is recorded for its whole business until the window ends */
      this.#windows.set(blockSlotOf(businessId), { startedAt: window.startedAt + spec.windowMs, count: 0 });
    }
    if (window.count > spec.limit && faults.has('rate-limit-retry-after-http-date')) {
      /* FAULT rate-limit-retry-after-http-date: Retry-After is sent as an HTTP-date, not the integer number of seconds the spec requires */
      throw new ApiError('rate_limit_exceeded', { headers: { 'Retry-After': new Date(window.startedAt + spec.windowMs).toUTCString() } });
    }
    if (window.count > spec.limit && faults.has('rate-limit-retry-after-floor')) {
      /* FAULT rate-limit-retry-after-floor: Retry-After is rounded down, so a client that honours it comes back before the window ends */
      throw new ApiError('rate_limit_exceeded', { headers: { 'Retry-After': String(Math.floor((window.startedAt + spec.windowMs - now) / 1000)) } });
    }
    if (window.count > spec.limit) {
      throw new ApiError('rate_limit_exceeded', {
        headers: { 'Retry-After': String(retryAfter === 'whole-window' ? Math.max(1, Math.ceil(spec.windowMs / 1000)) : retryAfterSeconds(window, spec, now)) },
      });
    }
  }
}

/** The window slot of a business (fault rate-limit-blocks-business), made only when that fault is on. */
function blockSlotOf(businessId: string): string {
  return `business\u0000${businessId}`;
}

/** Whole seconds (at least 1) until the window resets, rounded up. */
export function retryAfterSeconds(window: Window, spec: WindowSpec, now: number): number {
  const remainingMs = window.startedAt + spec.windowMs - now;
  return Math.max(1, Math.ceil(remainingMs / 1000));
}
