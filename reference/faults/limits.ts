/**
 * Planted faults of the limits area (per-key rate limiting, 429 with an integer Retry-After),
 * each a realistic bug in reference/rate-limit.ts, with the rule ids it must make fail.
 */
import type { FaultDefinition } from '../faults.ts';

export const LIMITS_FAULTS = {
  'rate-limit-throws-plain-error': {
    description: 'The limiter throws a plain Error, so a key over its limit gets 500 internal_error instead of 429 rate_limit_exceeded.',
    breaks: ['LIMIT-RATE-429'],
  },
  'rate-limit-retry-after-http-date': {
    description: 'Retry-After is sent as an HTTP-date instead of an integer number of seconds.',
    breaks: ['LIMIT-RETRY-AFTER'],
  },
  'rate-limit-retry-after-floor': {
    description: 'Retry-After is rounded down, so a client that waits it comes back before the window ends and is refused again.',
    breaks: ['LIMIT-RECOVERY'],
  },
  'rate-limit-blocks-business': {
    description: 'While one key of a business is over its limit, every key of that business is refused.',
    breaks: ['LIMIT-PER-KEY'],
  },
} satisfies Record<string, FaultDefinition>;
