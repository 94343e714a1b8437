/**
 * The suite's client is a model client of the spec (its client retry guidance): a 429 is waited
 * out (Retry-After) and sent again with the same Idempotency-Key, on any operation; an idempotent
 * request (a read, a create carrying an Idempotency-Key) is sent again after no answer or a
 * 502/503/504; a cancel is sent again only after a 429; probes that look for 429s see them; the
 * waits are bounded. Scripted servers answer exactly what each case needs.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configureBackPressure } from '../../core/back-pressure.ts';
import { Client, closeAllPools, resetClientState, TransportError } from '../../core/client.ts';

interface Seen {
  method: string;
  url: string;
  idempotencyKey: string | undefined;
  body: string;
  at: number;
}

let server: http.Server | undefined;
beforeEach(() => {
  resetClientState();
  configureBackPressure({});
});
afterEach(async () => {
  await closeAllPools();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r) ?? r(undefined));
  server = undefined;
});

/** A server whose n-th request (from 0) gets `script(n, seen)`: a status and headers, or 'reset'. */
async function scripted(script: (
  n: number,
  s: Seen,
) => { status: number; headers?: Record<string, string>; body?: string } | 'reset'): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s: Seen = {
        method: req.method!,
        url: req.url!,
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        body: Buffer.concat(chunks).toString(),
        at: performance.now(),
      };
      const a = script(seen.length, s);
      seen.push(s);
      if (a === 'reset') return req.socket.destroy();
      res.writeHead(
        a.status,
        { 'content-type': 'application/json', ...a.headers },
      ).end(a.body ?? (a.status < 400 ? '{"id":"pay_1","object":"payment"}' : `{"error":{"code":"x","message":"m","request_id":"r"}}`));
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, seen };
}

const limited = {
  status: 429,
  headers: { 'retry-after': '1' },
  body: '{"error":{"code":"rate_limit_exceeded","message":"slow down","request_id":"r"}}',
};

describe('the model client', () => {
  it('waits out a 429 for its Retry-After and sends the create again with the same Idempotency-Key and body', async () => {
    const t = await scripted((n) => (n === 0 ? limited : { status: 201 }));
    const client = new Client({ baseUrl: t.url });
    const res = await client.createPayment('pt_test_sk_x', { amount: '1.00' }, { idempotencyKey: 'k-1' });
    expect(res.status).toBe(201);
    expect(t.seen).toHaveLength(2);
    expect(t.seen[1]!.at - t.seen[0]!.at).toBeGreaterThanOrEqual(1000);
    expect(t.seen.map((s) => s.idempotencyKey)).toEqual(['k-1', 'k-1']);
    expect(t.seen[1]!.body).toBe(t.seen[0]!.body);
    expect(client.stats.throttled).toBe(1);
    // The 429 is kept as context, marked, and never handed to the judge as this request's answer.
    expect(client.transcript[0]!.retried).toMatch(/^429: waited/);
  });

  it('a cancel is sent again after a 429, never after a 503 or a reset (the guidance: "a cancel is retried only after a 429")', async () => {
    const t1 = await scripted((n) => (n === 0 ? limited : { status: 200 }));
    expect((await new Client({ baseUrl: t1.url }).cancelPayment('pt_test_sk_x', 'pay_1')).status).toBe(200);
    expect(t1.seen).toHaveLength(2);
    await afterEachClose();
    const t2 = await scripted(() => ({ status: 503 }));
    expect((await new Client({ baseUrl: t2.url }).cancelPayment('pt_test_sk_x', 'pay_1')).status).toBe(503);
    expect(t2.seen).toHaveLength(1);
    await afterEachClose();
    const t3 = await scripted(() => 'reset');
    await expect(new Client({ baseUrl: t3.url }).cancelPayment('pt_test_sk_x', 'pay_1')).rejects.toBeInstanceOf(TransportError);
    expect(t3.seen).toHaveLength(1);
  });

  it('a read is sent again after a reset and after a 502/503/504, a bounded number of times; a create without Idempotency-Key is not', async () => {
    const t = await scripted((n) => (n === 0 ? 'reset' : n === 1 ? { status: 503 } : n === 2 ? { status: 504 } : {
      status: 200,
      body: '{"object":"list","data":[],"has_more":false}',
    }));
    const client = new Client({ baseUrl: t.url });
    expect((await client.listPayments('pt_test_sk_x')).status).toBe(200);
    expect(t.seen).toHaveLength(4);
    expect([client.stats.transportRetries, client.stats.statusRetries]).toEqual([1, 2]);
    await afterEachClose();
    const always = await scripted(() => ({ status: 502 }));
    expect((await new Client({ baseUrl: always.url }).listPayments('pt_test_sk_x')).status).toBe(502);
    expect(always.seen).toHaveLength(4); // 1 + 3 retries, then the answer is judged as it is
    await afterEachClose();
    const create = await scripted(() => ({ status: 503 }));
    expect((await new Client({ baseUrl: create.url }).createPayment('pt_test_sk_x', { amount: '1.00' })).status).toBe(503);
    expect(create.seen).toHaveLength(1);
  });

  it('a probe that looks for 429s (acceptThrottle) gets the 429 at once', async () => {
    const t = await scripted(() => limited);
    const res = await new Client({ baseUrl: t.url }).request({
      method: 'GET',
      path: '/v1/payments?limit=1',
      key: 'pt_test_sk_x',
      acceptThrottle: true,
    });
    expect(res.status).toBe(429);
    expect(t.seen).toHaveLength(1);
  });

  it('after a 429 the other requests on that key wait too, and other keys do not', async () => {
    const t = await scripted((n, s) => (n === 0 ? limited : { status: 200, body: `{"key":"${s.url}"}` }));
    const client = new Client({ baseUrl: t.url });
    await client.listPayments('pt_test_sk_a');
    const started = performance.now();
    const other = client.listPayments('pt_test_sk_b').then(() => performance.now() - started);
    const same = client.listPayments('pt_test_sk_a').then(() => performance.now() - started);
    expect(await other).toBeLessThan(900);
    expect(await same).toBeGreaterThanOrEqual(900);
  });

  it('gives up within its budget: a target answering only 429 ends as HPS_ERR_TARGET_THROTTLED (ERROR), never as its answer', async () => {
    configureBackPressure({ waitBudgetMs: 2_500 });
    const t = await scripted(() => limited);
    const err = await new Client({ baseUrl: t.url }).listPayments('pt_test_sk_x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).code).toBe('HPS_ERR_TARGET_THROTTLED');
    expect(t.seen.length).toBeGreaterThanOrEqual(2);
    expect(t.seen.length).toBeLessThanOrEqual(5);
  });

  it('--max-rps paces a key from the start', async () => {
    configureBackPressure({ maxRps: 10 });
    const t = await scripted(() => ({ status: 200 }));
    const client = new Client({ baseUrl: t.url });
    const started = performance.now();
    await Promise.all(Array.from({ length: 6 }, () => client.listPayments('pt_test_sk_x')));
    // 6 requests at 10/s: the last leaves about 500 ms after the first.
    expect(performance.now() - started).toBeGreaterThanOrEqual(450);
  });
});

async function afterEachClose(): Promise<void> {
  await closeAllPools();
  resetClientState();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r) ?? r(undefined));
  server = undefined;
}
