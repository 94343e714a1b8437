/**
 * Load figures are computed from what happened (issue 21, item 6): one generator (no worker
 * thread) against small local servers whose behaviour is known.
 *
 * - The request cap ends a run early: the figures are over the time measured (never the nominal
 *   --duration), the warm-up cannot spend the whole cap, and the counts add up.
 * - A target answering only 429 with `Retry-After: 1`: the 429s are counted apart with what they
 *   asked; the open model says the offered rate was not accepted; the closed model honours
 *   Retry-After with --honour-retry-after (about one request per connection per second).
 *
 * Assertions are on counts and on bounds from this test's own clock, not on speeds.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFigures } from '../../load/figures.ts';
import { runGenerator, type GeneratorConfig } from '../../load/generator.ts';
import { parseLoadOptions } from '../../load/options.ts';
import { MIXES } from '../../load/scenarios.ts';
import { evaluateThresholds } from '../../load/thresholds.ts';
import { cli } from './helpers.ts';

const servers: http.Server[] = [];
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
});

/** A server answering every request with `status` (and its headers); every `resetEvery`-th request is reset instead. */
async function server(status: number, headers: Record<string, string>, resetEvery = 0): Promise<string> {
  let n = 0;
  const s = http.createServer((req, res) => {
    req.resume();
    if (resetEvery && ++n % resetEvery === 0) return req.socket.destroy();
    const body = status === 200 ? '{"object":"list","data":[],"has_more":false}' : '{"error":{"type":"rate_limit_error","code":"rate_limit_exceeded","message":"slow down"}}';
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(body);
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

function config(baseUrl: string, x: Partial<GeneratorConfig>): GeneratorConfig {
  return {
    baseUrl, key: 'pt_test_sk_measuredfigures', runId: 'mf', tag: 't', scenario: 'list', mix: MIXES.list, arrivals: 'constant',
    connections: 4, warmupS: 1, durationS: 30, timeoutMs: 5_000, maxRequests: 1_000_000, pool: [], startEpochMs: performance.timeOrigin + performance.now() + 20, ...x,
  };
}

/** Runs one generator; returns its result and, from this test's clock, how long its window really lasted. */
async function run(cfg: GeneratorConfig) {
  const result = await runGenerator(cfg);
  const windowStart = cfg.startEpochMs + cfg.warmupS * 1000;
  return { result, spentS: (performance.timeOrigin + performance.now() - windowStart) / 1000 };
}

describe('the request cap ends a run early', () => {
  it('rates are over the time measured, the warm-up leaves most of the cap to the window, the counts add up', async () => {
    const url = await server(200, {}, 50);
    const cfg = config(url, { maxRequests: 3_000 });
    const { result, spentS } = await run(cfg);
    const f = buildFigures([result], null, cfg.durationS);
    console.log(`cap 3000, window 30 s: measured ${f.measured_s} s (the window really lasted ≤ ${spentS.toFixed(2)} s), sent ${f.sent} = ${f.responses} answered + ${f.failed} failed, warm-up ${f.warmup_responses} answers; ${f.achieved_rps} req/s`);
    expect(f.stopped_by).toBe('max-requests');
    expect(f.responses).toBeGreaterThan(0);
    // The warm-up took at most a tenth of the cap; every request of the cap was sent.
    expect(f.sent).toBeGreaterThanOrEqual(2_700);
    expect(f.sent + f.warmup_responses).toBe(3_000);
    // sent = answered + failed (every 50th request is reset by the server), due = sent + never sent.
    expect(f.failed).toBeGreaterThan(0);
    expect(f.sent).toBe(f.responses + f.failed!);
    expect(f.due).toBe(f.sent + f.not_sent);
    // The rate is over the time measured: no longer than the window really lasted, far below the nominal 30 s.
    // (measured_s is rounded to the ms: a ms of slack both ways.)
    expect(f.measured_s).toBeLessThanOrEqual(spentS + 0.001);
    expect(f.measured_s).toBeLessThan(cfg.durationS / 2);
    expect(f.achieved_rps).toBeGreaterThanOrEqual((0.99 * f.sent) / spentS);
    expect(f.latency_ms.by_operation.list!.rps).toBeCloseTo(f.responses / f.measured_s!, 0);
    const p99 = evaluateThresholds(parseLoadOptions({ workers: '1' }).thresholds, f).find((t) => t.id === 'max-p99-ms')!;
    expect(p99.detail).not.toMatch(/no response/);
  }, 60_000);

  it('a run the duration ends is measured over the whole window, and due = sent + never sent in the open model', async () => {
    const url = await server(200, {});
    const cfg = config(url, { durationS: 2, warmupS: 0, rate: 200 });
    const { result } = await run(cfg);
    const f = buildFigures([result], 200, cfg.durationS);
    expect(f.stopped_by).toBe('duration');
    expect(f.measured_s).toBe(2);
    expect(f.due).toBe(f.sent + f.not_sent);
    expect(f.sent).toBe(f.responses + f.failed!);
  }, 60_000);
});

describe('a target answering only 429 with Retry-After: 1', () => {
  it('open model: the 429s are counted apart with their Retry-After, and the offered rate is not accepted', async () => {
    const url = await server(429, { 'retry-after': '1' });
    const cfg = config(url, { durationS: 2, warmupS: 0, rate: 200 });
    const { result } = await run(cfg);
    const f = buildFigures([result], 200, cfg.durationS);
    expect(f.rate_limited).toMatchObject({
      count: f.responses,
      share_of_responses: 1,
      with_retry_after: f.responses,
      retry_after_s: { min: 1, max: 1 },
      honoured: false,
      waits: 0,
    });
    expect(f.accepted_rps).toBe(0);
    const reached = evaluateThresholds(parseLoadOptions({ workers: '1', rate: '200' }).thresholds, f).find((t) => t.id === 'rate-reached')!;
    expect(reached.status).toBe('fail');
    expect(reached.detail).toMatch(/^OFFERED RATE NOT ACCEPTED: offered 200 req\/s, \d+ of \d+ answers were 429 \(100\.00%, Retry-After 1–1 s\)/);
  }, 60_000);

  it('closed model: without --honour-retry-after it never backs off; with it, about one request per connection per second', async () => {
    const url = await server(429, { 'retry-after': '1' });
    const plain = buildFigures([(await run(config(url, { durationS: 2, warmupS: 0, connections: 2 }))).result], null, 2);
    const honoured = buildFigures(
      [(await run(config(url, { durationS: 2, warmupS: 0, connections: 2, honourRetryAfter: true }))).result],
      null,
      2,
      true,
    );
    console.log(`all-429 target, 2 connections, 2 s: ${plain.sent} sent without honouring, ${honoured.sent} with (waits ${honoured.rate_limited?.waits}, ${honoured.rate_limited?.waited_s} s)`);
    expect(plain.sent).toBeGreaterThan(50);
    expect(plain.rate_limited?.waits).toBe(0);
    // 2 connections × (1 at once + 1 per second waited) within 2 s (+ the end grace): at most 6.
    expect(honoured.sent).toBeGreaterThanOrEqual(2);
    expect(honoured.sent).toBeLessThanOrEqual(6);
    expect(honoured.rate_limited).toMatchObject({ count: honoured.sent, honoured: true, waits: honoured.sent });
  }, 60_000);

  it('--honour-retry-after with --rate is a usage error (exit 2)', async () => {
    const r = await cli(['load', '--rate', '10', '--honour-retry-after']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--honour-retry-after: only in the closed model/);
  });
});
