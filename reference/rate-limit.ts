/**
 * Per-key rate limiting (spec, "Limits": 429 `rate_limit_exceeded` with an integer
 * `Retry-After`). A fixed window per API key: the first request opens a window of
 * `windowMs`; at most `limit` requests are served in it; the rest are refused until the
 * window ends. Refused requests count too (they do not extend the window).
 */
import { ApiError } from './errors.ts';
import type { WindowSpec } from './types.ts';

interface Window {
  startedAt: number;
  count: number;
}

export class FixedWindowLimiter {
  readonly #windows = new Map<string, Window>();

  /** Counts one request of `key`; throws 429 when over the limit. */
  take(key: string, spec: WindowSpec, now: number): void {
    let window = this.#windows.get(key);
    if (window === undefined || now >= window.startedAt + spec.windowMs || now < window.startedAt) {
      window = { startedAt: now, count: 0 };
      this.#windows.set(key, window);
    }
    window.count += 1;
    if (window.count > spec.limit) {
      throw new ApiError('rate_limit_exceeded', {
        headers: { 'Retry-After': String(retryAfterSeconds(window, spec, now)) },
      });
    }
  }
}

/** Whole seconds (at least 1) until the window resets, rounded up. */
export function retryAfterSeconds(window: Window, spec: WindowSpec, now: number): number {
  const remainingMs = window.startedAt + spec.windowMs - now;
  return Math.max(1, Math.ceil(remainingMs / 1000));
}
