/**
 * npm run bench:client — the suite's undici client (core/client.ts) side by side with
 * autocannon on the same endpoint (GET /v1/payments/{id} of the embedded reference server),
 * in ONE run, phases interleaved A B B A so that drift of a shared, noisy machine hits both
 * alike. Prints ratios: absolute numbers from a shared machine mean little.
 *
 *   tsx test/perf/bench-client.ts [--duration S per phase, default 3] [--connections N, default 10]
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { Client, closeAllPools, TransportError } from '../../core/client.ts';
import { openLoadTarget } from '../../core/targets/reference-process.ts';
import { summarise, type LatencySummary } from './latency-stats.ts';

interface Phase {
  tool: 'autocannon' | 'undici client';
  responses: number;
  non200: number;
  elapsedS: number;
  latencies: number[];
}

async function autocannonPhase(url: string, path: string, key: string, connections: number, durationS: number): Promise<Phase> {
  const latencies: number[] = [];
  const instance = autocannon({
    url,
    connections,
    duration: durationS,
    pipelining: 1,
    requests: [{ method: 'GET', path, headers: { authorization: `Bearer ${key}`, accept: 'application/json' } }],
  });
  let non200 = 0;
  instance.on('response', (_c: unknown, status: number, _b: number, ms: number) => {
    latencies.push(ms);
    if (status !== 200) non200 += 1;
  });
  const raw = await instance;
  return { tool: 'autocannon', responses: latencies.length, non200: non200 + raw.errors, elapsedS: raw.duration, latencies };
}

async function undiciPhase(client: Client, id: string, key: string, connections: number, durationS: number): Promise<Phase> {
  const latencies: number[] = [];
  let non200 = 0;
  const started = performance.now();
  const deadline = started + durationS * 1000;
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const t = performance.now();
      try {
        const res = await client.getPayment(key, id);
        if (res.status !== 200) non200 += 1;
      } catch (e) {
        if (!(e instanceof TransportError)) throw e;
        non200 += 1;
      }
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return { tool: 'undici client', responses: latencies.length, non200, elapsedS: (performance.now() - started) / 1000, latencies };
}

function combine(phases: Phase[]): { rps: number; lat: LatencySummary; non200: number } {
  const responses = phases.reduce((a, p) => a + p.responses, 0);
  const elapsed = phases.reduce((a, p) => a + p.elapsedS, 0);
  return { rps: responses / elapsed, lat: summarise(phases.flatMap((p) => p.latencies)), non200: phases.reduce((a, p) => a + p.non200, 0) };
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { duration: { type: 'string' }, connections: { type: 'string' } }, strict: true });
  const durationS = Number(values.duration ?? 3);
  const connections = Number(values.connections ?? 10);
  if (!Number.isInteger(durationS) || durationS < 1 || durationS > 30 || !Number.isInteger(connections) || connections < 1 || connections > 32) {
    console.error('bench:client: --duration 1..30 (s per phase), --connections 1..32 (the suite client pools 32 connections)');
    return 2;
  }
  const target = await openLoadTarget(undefined);
  try {
    const { base_url: url, keys } = target.profile;
    const client = new Client({ baseUrl: url, secrets: target.secrets });
    const created = await client.createPayment(keys.test, { amount: '100.00', metadata: { conformance_run: 'bench-client' } });
    if (created.status !== 201) throw new Error(`could not create the payment to read (${created.status})`);
    const id = created.json.id as string;
    const path = `/v1/payments/${encodeURIComponent(id)}`;
    console.log(`bench:client · embedded reference ${url} · GET /v1/payments/{id} · ${connections} connections · 4 phases of ${durationS} s (A B B A)`);
    const phases: Phase[] = [];
    phases.push(await autocannonPhase(url, path, keys.test, connections, durationS));
    phases.push(await undiciPhase(client, id, keys.test, connections, durationS));
    phases.push(await undiciPhase(client, id, keys.test, connections, durationS));
    phases.push(await autocannonPhase(url, path, keys.test, connections, durationS));
    const a = combine(phases.filter((p) => p.tool === 'autocannon'));
    const u = combine(phases.filter((p) => p.tool === 'undici client'));
    const row = (name: string, x: typeof a) =>
      `${name.padEnd(14)} ${x.rps.toFixed(1).padStart(9)} ${x.lat.p50.toFixed(2).padStart(8)} ${x.lat.p99.toFixed(2).padStart(8)} ${x.lat.mean.toFixed(2).padStart(8)} ${String(x.non200).padStart(8)}`;
    console.log(`${'client'.padEnd(14)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'mean ms'.padStart(8)} ${'non-200'.padStart(8)}`);
    console.log(row('autocannon', a));
    console.log(row('undici client', u));
    const ratio = (x: number, y: number) => (y > 0 ? (x / y).toFixed(2) : 'n/a');
    console.log(`ratios undici/autocannon: throughput ${ratio(
      u.rps,
      a.rps,
    )} · p50 ${ratio(u.lat.p50, a.lat.p50)} · p99 ${ratio(u.lat.p99, a.lat.p99)}`);
    console.log('(one process serves and measures, on a shared machine: read the ratios, not the absolute numbers)');
    return a.non200 + u.non200 > 0 ? 1 : 0;
  } finally {
    await closeAllPools();
    await target.close();
  }
}

process.exitCode = await main();
