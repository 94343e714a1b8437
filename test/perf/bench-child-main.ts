/**
 * One measured phase of `npm run bench:load`, in its own process so that taskset can pin it:
 * argv[2] is JSON { engine, url, path, key, connections, seconds, workers?, serverPid }; prints
 * one JSON line { requests, seconds, ok, cpu, p50Ms? } (cpu: the cores this process, the server and the
 * rest of the machine used during the measured window, from /proc).
 *   generator: this project's generator (closed model; with `rate`, open), every correctness check on, its p50;
 *   workers:   the same through --workers N (worker threads, merged); with `rate`, the open model;
 *   http1:     a bare loop on the generator's own HTTP/1.1 connections (no check, no histogram);
 *   undici:    a bare undici loop on the same connections (no check, no histogram);
 *   autocannon: autocannon driven bare.
 */
import autocannon from 'autocannon';
import { Client } from 'undici';
import { Http1Connection } from '../../load/http1-connection.ts';
import { cpuSample, cpuShares, type CpuSample } from './bench-cpu.ts';
import { runGenerator, type GeneratorResult } from '../../load/generator.ts';
import { mergeEncoded } from '../../load/histogram.ts';
import { MIXES } from '../../load/scenarios.ts';
import { runWorkers } from '../../load/workers.ts';

interface Phase {
  engine: 'generator' | 'workers' | 'http1' | 'undici' | 'autocannon';
  url: string;
  id: string;
  key: string;
  connections: number;
  seconds: number;
  workers?: number;
  /** Open model at this rate (req/s, shared by the workers); absent: closed model. */
  rate?: number;
  serverPid: number;
}

const p = JSON.parse(process.argv[2]!) as Phase;
const path = `/v1/payments/${p.id}`;
const headers = { authorization: `Bearer ${p.key}`, accept: 'application/json' };
let windowStart: CpuSample | null = null;
/** Marks the start of the measured window (after loading: worker threads load first). */
const startWindow = (): void => void (windowStart = cpuSample('self', p.serverPid));

async function generator(n: number | null): Promise<{ requests: number; ok: boolean; p50Ms: number }> {
  const plan = {
    baseUrl: p.url,
    key: p.key,
    runId: 'bench',
    tag: 'b',
    scenario: 'read' as const,
    mix: MIXES.read,
    connections: p.connections,
    arrivals: 'constant' as const,
    warmupS: 0,
    durationS: p.seconds,
    timeoutMs: 10_000,
    maxRequests: 10_000_000,
    pool: [{ id: p.id, amount: '100.00', externalId: 'x' }],
    ...(p.rate ? { rate: p.rate } : {}),
  };
  let results: GeneratorResult[];
  if (n === null) {
    startWindow();
    results = [await runGenerator({ ...plan, startEpochMs: performance.timeOrigin + performance.now() })];
  } else results = await runWorkers(plan, n, startWindow);
  const requests = results.reduce((a, r) => a + r.answered, 0);
  const bad = results.reduce((a, r) => a + r.obs.read.bad.count, 0);
  // The median latency of the window (open model: from each request's due time, wrk2's correction).
  const p50Ms = mergeEncoded(results.flatMap((r) => Object.values(r.histograms))).getValueAtPercentile(50) / 1000;
  return { requests, ok: bad === 0 && requests > 0, p50Ms };
}

async function bareUndici(): Promise<{ requests: number; ok: boolean }> {
  let requests = 0;
  let bad = 0;
  startWindow();
  const end = performance.now() + p.seconds * 1000;
  await Promise.all(
    Array.from({ length: p.connections }, async () => {
      const c = new Client(p.url, { pipelining: 1 });
      while (performance.now() < end) {
        const res = await c.request({ method: 'GET', path, headers });
        await res.body.text();
        if (res.statusCode === 200) requests += 1;
        else bad += 1;
      }
      await c.close();
    }),
  );
  return { requests, ok: bad === 0 };
}

async function bareHttp1(): Promise<{ requests: number; ok: boolean }> {
  let requests = 0;
  let bad = 0;
  startWindow();
  const end = performance.now() + p.seconds * 1000;
  const req = { method: 'GET', path, headers };
  await Promise.all(
    Array.from({ length: p.connections }, async () => {
      const c = Http1Connection.forUrl(p.url, 10_000, 1024 * 1024);
      while (performance.now() < end) {
        if ((await c.send(req)).status === 200) requests += 1;
        else bad += 1;
      }
      await c.close();
    }),
  );
  return { requests, ok: bad === 0 };
}

async function bareAutocannon(): Promise<{ requests: number; ok: boolean }> {
  startWindow();
  const r = await autocannon({ url: p.url + path, connections: p.connections, duration: p.seconds, headers });
  return { requests: r['2xx'], ok: r.non2xx === 0 && r.errors === 0 };
}

const engines = {
  generator: () => generator(null),
  workers: () => generator(p.workers ?? 1),
  http1: bareHttp1,
  undici: bareUndici,
  autocannon: bareAutocannon,
};
const out = await engines[p.engine]();
const cpu = cpuShares(windowStart!, cpuSample('self', p.serverPid));
process.stdout.write(JSON.stringify({ ...out, seconds: p.seconds, cpu }) + '\n');
