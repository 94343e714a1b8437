import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startReference, type RunningReference } from './helpers.ts';

let ref: RunningReference;
beforeAll(async () => {
  ref = await startReference({
    createDelayMs: 0,
    webhookBaseUrl: 'http://127.0.0.1:9',
    rateLimit: { default: { limit: 1_000_000, windowMs: 1000 }, limitedKey: { limit: 5, windowMs: 1000 } },
  });
});
afterAll(async () => ref.close());

describe('rate limiting', () => {
  it('answers 429 rate_limit_exceeded with an integer Retry-After, per key, then recovers', async () => {
    const key = ref.profile.keys.test_rate_limited;
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 8; i += 1) {
      const r = await call(ref, 'GET', '/v1/payments', { key });
      statuses.push(r.status);
      if (r.status === 429) limited ??= r;
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    expect(limited?.json.error.code).toBe('rate_limit_exceeded');
    const retryAfter = String(limited?.headers['retry-after']);
    expect(retryAfter).toMatch(/^[1-9][0-9]*$/);
    expect(Number(retryAfter)).toBe(1);

    // Another key of the same business is not affected.
    expect((await call(ref, 'GET', '/v1/payments')).status).toBe(200);
    // Unauthenticated requests are not counted against anyone and get 401.
    expect((await call(ref, 'GET', '/v1/payments', { key: null })).status).toBe(401);

    await new Promise((r) => setTimeout(r, 1050));
    expect((await call(ref, 'GET', '/v1/payments', { key })).status).toBe(200);
  });
});
