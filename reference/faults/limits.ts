/**
 * Planted faults of the limits area (per-key rate limiting, 429 with an integer Retry-After),
 * each a realistic bug in reference/rate-limit.ts.
 */

export const LIMITS_FAULTS = {
  'rate-limit-throws-plain-error':
    'The limiter throws a plain Error, so a key over its limit gets 500 internal_error instead of 429 rate_limit_exceeded.',
  'rate-limit-retry-after-http-date':
    'Retry-After is sent as an HTTP-date instead of an integer number of seconds.',
  'rate-limit-retry-after-floor':
    'Retry-After is rounded down, so a client that waits it comes back before the window ends and is refused again.',
  'rate-limit-blocks-business':
    'While one key of a business is over its limit, every key of that business is refused.',
} as const satisfies Readonly<Record<string, string>>;
