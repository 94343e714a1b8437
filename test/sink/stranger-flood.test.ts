/**
 * No stranger's traffic changes what a rule sees (issue 21, item 5). Every path that needs no query
 * token is flooded from loopback: redirect targets with made-up tokens (GET, and POST with 64 KiB
 * bodies), unknown paths, unsigned and badly signed events to a known endpoint (one of them a forged
 * copy of the genuine event to come), GETs to it, and the query API without a token. The caps are
 * set low (maxDeliveries 500) so that anything counting toward them would show. Then a genuine
 * delivery and a genuine redirect hit are still recorded, attempt 1 is still the genuine first
 * attempt, the log holds only them, and the same holds after a restart on that log. Prints figures.
 */
import { readFileSync, statSync } from 'node:fs';
import { Pool, request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunningSink } from '../../service/sink/index.ts';
import { deliver, paymentEvent, startTestSink, tempDir } from './helpers.ts';

const PER_KIND = 1_500;
const CAP = 500;
const temp = tempDir();
const open: RunningSink[] = [];
afterAll(async () => {
  for (const sink of open) await sink.close();
  temp.remove();
});

type Stranger = { method: 'GET' | 'POST'; path: string; body?: Buffer; headers?: Record<string, string> };

function strangers(genuineEventBody: Buffer): Array<(n: number) => Stranger> {
  const fat = Buffer.alloc(64 * 1024, 0x61);
  const badSig = { 'content-type': 'application/json', 'service-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` };
  return [
    (n) => ({ method: 'POST', path: `/_sink/redirect-target/made-up-${n}`, body: fat }),
    (n) => ({ method: 'GET', path: `/_sink/redirect-target/${'A'.repeat(16)}${n}` }),
    (n) => ({ method: 'POST', path: `/not-an-endpoint/${n}`, body: paymentEvent().body, headers: { 'content-type': 'application/json' } }),
    () => ({ method: 'POST', path: '/hooks/test-all', body: paymentEvent().body, headers: { 'content-type': 'application/json' } }),
    (n) => ({
      method: 'POST',
      path: '/hooks/test-all',
      body: n % 2 ? genuineEventBody : paymentEvent({ paymentId: 'pay_'.padEnd(4_000, 'x') }).body,
      headers: badSig,
    }),
    () => ({ method: 'GET', path: '/hooks/test-all' }),
    () => ({ method: 'GET', path: '/_sink/deliveries' }),
  ];
}

async function flood(sink: RunningSink, kinds: Array<(n: number) => Stranger>): Promise<Map<number, number>> {
  const pool = new Pool(sink.url, { connections: 16, pipelining: 1 });
  const statuses = new Map<number, number>();
  const total = PER_KIND * kinds.length;
  try {
    for (let i = 0; i < total; i += 400) {
      await Promise.all(
        Array.from({ length: Math.min(400, total - i) }, async (_, j) => {
          const n = i + j;
          const s = kinds[n % kinds.length]!(n);
          const res = await pool.request({
            method: s.method,
            path: s.path,
            body: s.body,
            headers: s.headers,
            headersTimeout: 30_000,
            bodyTimeout: 30_000,
          });
          await res.body.dump();
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        }),
      );
    }
  } finally {
    await pool.close();
  }
  return statuses;
}

async function genuineHit(
  sink: RunningSink,
  marker = 'redirect:1',
): Promise<{ eventId: string; delivered: number; hit: number; location: string }> {
  const event = paymentEvent({ marker });
  const answer = await deliver(sink, '/hooks/test-all', event.body);
  const location = String(answer.headers.location);
  const followed = await request(
    location.replace(sink.publicUrl, sink.url),
    { method: 'POST', body: event.body, headersTimeout: 5_000, bodyTimeout: 5_000 },
  );
  await followed.body.dump();
  return { eventId: event.eventId, delivered: answer.status, hit: followed.statusCode, location };
}

describe('strangers flooding every path that needs no token', () => {
  it(`change nothing a rule sees: ${PER_KIND} requests of each of 7 kinds, then a genuine delivery and redirect hit are recorded, before and after a restart`, async () => {
    const options = { maxDeliveries: CAP };
    const sink = await startTestSink(temp.dir, options);
    open.push(sink);
    const genuine = paymentEvent({ marker: 'fail:500x1' });
    const kinds = strangers(genuine.body);
    const started = performance.now();
    const statuses = await flood(sink, kinds);
    const floodMs = performance.now() - started;

    // The genuine event whose forged copies came first: still attempt 1, answered as planned (500), then 200.
    expect((await deliver(sink, '/hooks/test-all', genuine.body)).status).toBe(500);
    expect((await deliver(sink, '/hooks/test-all', genuine.body)).status).toBe(200);
    const verified = sink.deliveries({ eventId: genuine.eventId }).filter((d) => d.problem === null);
    expect(verified.map((d) => d.attempt)).toEqual([1, 2]);

    const first = await genuineHit(sink);
    const stats = sink.stats();
    const logBytes = statSync(sink.logFile).size;
    const logLines = readFileSync(sink.logFile, 'utf8').trim().split('\n');
    console.log(
      `stranger flood: ${PER_KIND * kinds.length} requests (${kinds.length} kinds) in ${(floodMs / 1000).toFixed(1)} s, answers ${JSON.stringify(Object.fromEntries(statuses))}; ` +
        `then genuine delivery ${first.delivered}, genuine hit ${first.hit}; stats ${JSON.stringify(stats)}; log ${logLines.length} lines, ${logBytes} bytes`,
    );
    expect(statuses.get(404)).toBe(2 * PER_KIND); // made-up redirect tokens
    expect(statuses.get(401)).toBe(PER_KIND); // the query API without a token
    expect(statuses.get(400)).toBe(4 * PER_KIND); // unknown path, unsigned, badly signed, GET
    expect([first.delivered, first.hit]).toEqual([302, 200]);
    expect(sink.redirectHits()).toMatchObject([{
      forSeq: sink.deliveries({ eventId: first.eventId })[0]!.seq,
      endpoint: '/hooks/test-all',
      body: '',
    }]);
    expect(stats).toMatchObject({ deliveries: 3, dropped: 0, redirectHits: 1, unknownRedirectHits: 2 * PER_KIND, rejected: 4 * PER_KIND });
    // start, the genuine event's two attempts, the redirect delivery and its hit: nothing of the strangers'.
    expect(logLines.map((l) => JSON.parse(l).line)).toEqual(['start', 'delivery', 'delivery', 'delivery', 'redirect_hit']);
    await sink.close();

    const again = await startTestSink(temp.dir, options);
    open.push(again);
    expect(again.stats()).toMatchObject({ deliveries: 3, redirectHits: 1, skippedLogLines: 0 });
    await flood(again, kinds.slice(0, 2));
    const second = await genuineHit(again);
    expect([second.delivered, second.hit]).toEqual([302, 200]);
    expect(again.redirectHits().map((h) => h.token)).toEqual([first.location, second.location].map((l) => l.split('/').at(-1)));
  }, 180_000);
});
