/**
 * A conformant service that rate-limits every key (the spec: "Rate limiting exists per key …
 * thresholds and window: not shown") stays conformant: the suite waits out every 429 the way the
 * client guidance says and judges nothing about it. The whole suite at 20 requests/s per key
 * (fixed one-second windows), here; a few areas at 5/s (a sliding window) and at 25 per 5 s
 * (Retry-After up to 5 s) in test/field/rate-limited-areas.test.ts, a worker of its own. Every MUST
 * rule that runs without a limit runs with it. The full matrix (5, 20 and 100 per second, fixed
 * and sliding) is `npm run bench:field -- --only limits`.
 */
import { describe } from 'vitest';
import { rateLimitedCase } from './rate-limited-case.ts';

describe('a service that rate-limits every key', () => {
  rateLimitedCase({ spec: { limit: 20, windowMs: 1000, kind: 'fixed' }, budgetMs: 900_000 });
});
