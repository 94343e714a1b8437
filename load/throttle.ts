/**
 * 429 answers, counted apart from the other errors, with what they asked (Retry-After: an
 * integer number of seconds, spec "Errors" and "Limits") and, in the closed model with
 * `--honour-retry-after`, the waits the generator made. Plain data, so parts merge (workers, shards).
 */

export interface ThrottleTally {
  /** 429 answers to requests sent in the measured window. */
  rateLimited: number;
  /** Of those, how many carried a usable Retry-After (an integer of seconds). */
  withRetryAfter: number;
  /** Smallest and largest Retry-After seen (s); 0 when none. */
  retryAfterMinS: number;
  retryAfterMaxS: number;
  /** Waits made on a Retry-After (closed model, --honour-retry-after) and their total (ms). */
  waits: number;
  waitedMs: number;
}

/** The longest single wait a Retry-After can impose (the window's end bounds it too). */
export const MAX_RETRY_AFTER_WAIT_MS = 60_000;

export function newThrottleTally(): ThrottleTally {
  return { rateLimited: 0, withRetryAfter: 0, retryAfterMinS: 0, retryAfterMaxS: 0, waits: 0, waitedMs: 0 };
}

/** Seconds from a Retry-After value: an integer (the spec's form); null for anything else. */
export function retryAfterSeconds(value: string | undefined): number | null {
  if (value === undefined || !/^\d{1,7}$/.test(value.trim())) return null;
  return Number(value.trim());
}

/** One 429 answer in the window; returns the seconds it asked to wait (null: none usable). */
export function countRateLimited(t: ThrottleTally, retryAfter: string | undefined): number | null {
  t.rateLimited += 1;
  const s = retryAfterSeconds(retryAfter);
  if (s === null) return null;
  t.retryAfterMinS = t.withRetryAfter === 0 ? s : Math.min(t.retryAfterMinS, s);
  t.retryAfterMaxS = Math.max(t.retryAfterMaxS, s);
  t.withRetryAfter += 1;
  return s;
}

export function mergeThrottle(parts: readonly (ThrottleTally | undefined)[]): ThrottleTally {
  const out = newThrottleTally();
  for (const p of parts) {
    if (!p) continue;
    if (p.withRetryAfter) {
      out.retryAfterMinS = out.withRetryAfter === 0 ? p.retryAfterMinS : Math.min(out.retryAfterMinS, p.retryAfterMinS);
      out.retryAfterMaxS = Math.max(out.retryAfterMaxS, p.retryAfterMaxS);
    }
    out.rateLimited += p.rateLimited;
    out.withRetryAfter += p.withRetryAfter;
    out.waits += p.waits;
    out.waitedMs += p.waitedMs;
  }
  return out;
}
