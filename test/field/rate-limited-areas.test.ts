/**
 * A conformant service that rate-limits every key stays conformant (test/field/rate-limited.test.ts
 * says why and runs the whole suite at 40/s): a few areas at 5/s (a sliding window) and at 25 per
 * 5 s (Retry-After up to 5 s), one run per area, all side by side (each its own reference, proxy
 * and keys: the runs mostly wait out 429s, and an area's run waits only for its own requests: auth
 * and idempotency in one run at 5/s could not take less than 90 s), in a worker beside the
 * whole-suite case.
 */
import { describe } from 'vitest';
import { rateLimitedCase } from './rate-limited-case.ts';

describe.concurrent('a service that rate-limits every key', () => {
  for (const areas of ['auth', 'idempotency']) {
    rateLimitedCase({ spec: { limit: 5, windowMs: 1000, kind: 'sliding' }, areas, budgetMs: 600_000 });
  }
  for (const areas of ['listing', 'transitions']) {
    rateLimitedCase({ spec: { limit: 25, windowMs: 5000, kind: 'sliding' }, areas, budgetMs: 600_000 });
  }
});
