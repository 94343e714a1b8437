/**
 * No target can crash or stall the client (issue 11): against servers that misbehave on purpose,
 * every request ends as a TransportError with a stable code, each attempt within its deadline (a
 * read without an answer is sent again a bounded number of times), with bounded memory. Figures (code, wall time, RSS growth) are printed per case.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Client, closeAllPools, MAX_RETRIES, TransportError } from '../../core/client.ts';
import { HOSTILE_CASES, startHostile, type HostileCase, type RunningHostile } from './hostile-servers.ts';

const DEADLINE_MS = 2_500;
const CAP = 8 * 1024 * 1024;
const EXPECTED: Record<HostileCase, TransportError['code']> = {
  'huge-declared': 'HPS_ERR_TARGET_OVERSIZE',
  'endless-chunked': 'HPS_ERR_TARGET_OVERSIZE',
  trickle: 'HPS_ERR_TARGET_TIMEOUT',
  'headers-then-silence': 'HPS_ERR_TARGET_TIMEOUT',
  silence: 'HPS_ERR_TARGET_TIMEOUT',
  'invalid-framing': 'HPS_ERR_TARGET_GARBAGE',
};

let server: RunningHostile | undefined;
afterEach(async () => {
  await closeAllPools();
  await server?.close();
  server = undefined;
});

describe('the client against hostile targets', () => {
  for (const kind of Object.keys(HOSTILE_CASES) as HostileCase[]) {
    it(`${kind}: ${HOSTILE_CASES[kind]}`, async () => {
      server = await startHostile(kind);
      const client = new Client({ baseUrl: server.url, timeoutMs: DEADLINE_MS, maxResponseBytes: CAP });
      const rss0 = process.memoryUsage().rss;
      let peak = rss0;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
      const started = performance.now();
      const err = await client.request({ method: 'GET', path: '/v1/payments', key: 'pt_test_sk_x' }).then(
        () => new Error('answered'),
        (e: unknown) => e,
      );
      const wall = performance.now() - started;
      clearInterval(sampler);
      peak = Math.max(peak, process.memoryUsage().rss);
      const growthMb = (peak - rss0) / 2 ** 20;
      expect(err).toBeInstanceOf(TransportError);
      const t = err as TransportError;
      console.log(`${kind}: ${t.code} after ${wall.toFixed(0)} ms (deadline ${DEADLINE_MS} ms), RSS growth ${growthMb.toFixed(1)} MB — ${t.message}`);
      expect(t.code).toBe(EXPECTED[kind]);
      expect(t.figures?.deadlineMs).toBe(DEADLINE_MS);
      expect(t.message).toMatch(/\d+ ms|\d+-byte cap/);
      // Every attempt ends at its deadline; a read that got no answer is sent again at most
      // MAX_RETRIES times (the client guidance retries reads after a network failure).
      const attempts = client.transcript.filter((x) => x.transportError);
      for (const a of attempts) expect(a.durationMs).toBeLessThan(DEADLINE_MS + 1_000);
      expect(attempts.length).toBe(t.code === 'HPS_ERR_TARGET_TIMEOUT' ? 1 + MAX_RETRIES : 1);
      expect(wall).toBeLessThan((1 + MAX_RETRIES) * (DEADLINE_MS + 1_000) + 5_000);
      expect(growthMb).toBeLessThan(64);
      // The transcript keeps the exchange as evidence of the trouble.
      expect(client.transcript.at(-1)?.transportError).toMatch(new RegExp(`^${t.code}`));
    });
  }

  it('reads an ordinary answer under the cap and refuses one a byte over it', async () => {
    const { createServer } = await import('node:http');
    const body = JSON.stringify({ data: 'x'.repeat(1000) });
    const s = createServer((_req, res) => res.end(body)).listen(0, '127.0.0.1');
    await new Promise((r) => s.once('listening', r));
    const url = `http://127.0.0.1:${(s.address() as { port: number }).port}`;
    try {
      const ok = await new Client({ baseUrl: url, maxResponseBytes: body.length }).request({ method: 'GET', path: '/' });
      expect(ok.json.data.length).toBe(1000);
      const over = await new Client({
        baseUrl: url,
        maxResponseBytes: body.length - 1,
      }).request({ method: 'GET', path: '/' }).catch((e) => e);
      expect(over).toBeInstanceOf(TransportError);
      expect((over as TransportError).code).toBe('HPS_ERR_TARGET_OVERSIZE');
      expect((over as TransportError).message).toContain(`${body.length - 1}-byte cap`);
    } finally {
      await closeAllPools();
      s.close();
    }
  });
});
