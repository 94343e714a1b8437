/**
 * Against a profile's target the run takes as many suite workers as the target's distance calls
 * for (service/harness/main/distance.ts): a round trip timed before the workers start.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import {
  FAR_SUITE_WORKERS, LOCAL_SUITE_WORKERS, NEAR_SUITE_WORKERS, roundTripMs, workersForDistance,
} from '../../service/harness/main/distance.ts';

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
  it('near: 4, or 2 on this machine (a loopback host); far: 8, on loopback too; no answer: near (the preflight says why)', () => {
    expect([NEAR_SUITE_WORKERS, LOCAL_SUITE_WORKERS, FAR_SUITE_WORKERS]).toEqual([4, 2, 8]);
    expect(workersForDistance(0.4, 'https://staging.example.test/api')).toBe(NEAR_SUITE_WORKERS);
    expect(workersForDistance(52, 'https://staging.example.test')).toBe(FAR_SUITE_WORKERS);
    expect(workersForDistance(undefined, 'https://staging.example.test')).toBe(NEAR_SUITE_WORKERS);
    for (const local of ['http://127.0.0.1:8080', 'https://localhost/api', 'http://[::1]:3000', 'http://127.8.9.10']) {
      expect(workersForDistance(0.4, local), local).toBe(LOCAL_SUITE_WORKERS);
      expect(workersForDistance(undefined, local), local).toBe(LOCAL_SUITE_WORKERS);
      // a delaying proxy or a tunnel on loopback: far all the same
      expect(workersForDistance(51.3, local), local).toBe(FAR_SUITE_WORKERS);
    }
    expect(workersForDistance(0.4, 'http://127.0.0.1.example.test')).toBe(NEAR_SUITE_WORKERS);
    expect(workersForDistance(0.4, 'not a url')).toBe(NEAR_SUITE_WORKERS);
  });

  it('times three requests without a key and keeps the fastest', async () => {
    const near = await target(0);
    const far = await target(60);
    const [n, f] = [await roundTripMs(near.url, undefined), await roundTripMs(far.url, undefined)];
    expect(n).toBeDefined();
    expect(f).toBeGreaterThanOrEqual(55);
    expect(workersForDistance(f, far.url)).toBe(FAR_SUITE_WORKERS);
    expect([near.seen(), far.seen()]).toEqual([3, 3]);
  });

  // A hostile 7.5 MB list answer timed whole made a loopback target far: 8 workers.
  it('times the answer\'s head, not its body: a body trickled over 300 ms does not count', async () => {
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    let seen = 0;
    const s = createServer((req, res) => {
      seen++;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(30 * chunk.length) });
      let sent = 0;
      const next = () => {
        if (res.destroyed || sent++ >= 30) return void res.end();
        res.write(chunk);
        setTimeout(next, 10); // 30 chunks 10 ms apart: a body read whole takes 300 ms or more
      };
      next();
    });
    servers.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(s.address() as { port: number }).port}`;
    const ms = await roundTripMs(url, undefined);
    expect(ms).toBeLessThan(250); // the whole body takes 300 ms or more
    expect(seen).toBe(3);
  });

  it('a target that does not answer: undefined, within the probe bound', async () => {
    const started = Date.now();
    expect(await roundTripMs('http://127.0.0.1:9', undefined)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
