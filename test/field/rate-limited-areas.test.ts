/**
 * A conformant service that rate-limits every key stays conformant (test/field/rate-limited.test.ts
 * says why and runs the whole suite at 20/s): a few areas at 5/s (a sliding window) and at 25 per
 * 5 s (Retry-After up to 5 s), side by side (each its own reference, proxy and keys: the two runs
 * mostly wait out 429s), in a worker beside the whole-suite case.
 */
import { describe } from 'vitest';
import { rateLimitedCase } from './rate-limited-case.ts';

describe.concurrent('a service that rate-limits every key', () => {
  rateLimitedCase({ spec: { limit: 5, windowMs: 1000, kind: 'sliding' }, areas: 'auth,idempotency', budgetMs: 600_000 });
  rateLimitedCase({ spec: { limit: 25, windowMs: 5000, kind: 'sliding' }, areas: 'listing,transitions', budgetMs: 600_000 });
});
