/**
 * Against a profile's target the run takes as many suite workers as the target's distance calls
 * for (service/harness/main/distance.ts): a round trip timed before the workers start.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { FAR_SUITE_WORKERS, NEAR_SUITE_WORKERS, roundTripMs, workersForDistance } from '../../service/harness/main/distance.ts';

const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

/** A server that answers every request 401 after `delayMs`, and counts them. */
async function target(delayMs: number): Promise<{ url: string; seen: () => number }> {
  let seen = 0;
  const s = createServer((req, res) => {
    seen++;
    setTimeout(() => res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"code":"unauthorized"}}'), delayMs);
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, seen: () => seen };
}

describe('suite workers by distance', () => {
  it('near: 4; far: 8; no answer: near (the preflight says why)', () => {
    expect(workersForDistance(0.4)).toBe(NEAR_SUITE_WORKERS);
    expect(workersForDistance(52)).toBe(FAR_SUITE_WORKERS);
    expect(workersForDistance(undefined)).toBe(NEAR_SUITE_WORKERS);
  });

  it('times two requests without a key and keeps the faster', async () => {
    const near = await target(0);
    const far = await target(60);
    const [n, f] = [await roundTripMs(near.url, undefined), await roundTripMs(far.url, undefined)];
    expect(n).toBeDefined();
    expect(f).toBeGreaterThanOrEqual(55);
    expect(workersForDistance(f)).toBe(FAR_SUITE_WORKERS);
    expect([near.seen(), far.seen()]).toEqual([2, 2]);
  });

  it('a target that does not answer: undefined, within the probe bound', async () => {
    const started = Date.now();
    expect(await roundTripMs('http://127.0.0.1:9', undefined)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
