/**
 * npm run bench:proxy — the validating proxy's cost, in three sections (docs/load-bench.md, "bench:proxy"):
 *
 *  speed   the validating proxy vs a bare pass-through proxy on the same runtime, wrk through each,
 *          interleaved A B A B: the throughput ratio (goal ≥ 0.5) (bench-proxy-speed.ts);
 *  open    the same two at an open 500 req/s: the p50 judging adds (goal ≤ 1 ms) (bench-proxy-speed.ts);
 *  memory  a long run in bounded memory and disk: N exchanges (default 100 000, about an hour of a
 *          busy merchant application; 1 000 000 for a day) replayed through `proxy` (in this
 *          process) to the reference server in a process of its own (so its Payments are not counted
 *          here), 16 at a time: one create in ten (its own Idempotency-Key), the rest reads of known
 *          Payments and lists. Prints at every tenth of the run the peak RSS of this process (the
 *          proxy, its judge state and the HAR writer), the heap after a full collection and the bytes
 *          of the report directory on disk (traffic.har's segments and anything else written there):
 *          flat figures are the bounds holding.
 *
 *   npm run bench:proxy [-- --only speed,open,memory] [--rounds N (3)] [--seconds S (5)] [--connections N (4)]
 *                       [--rate R (500)] [--exchanges N (100000)]     (node --expose-gc: the heap after a full collection)
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { startStandaloneProxy } from '../support/standalone-proxy.ts';
import { openLoadTarget } from '../../core/targets/reference-process.ts';
import { proxySpeed } from './bench-proxy-speed.ts';

const CONCURRENCY = 16;
const SECTIONS = ['speed', 'open', 'memory'] as const;

/** The heap in use after a full collection when node runs with --expose-gc (npm run bench:proxy does), else as it is. */
function heapAfterGc(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

/** Bytes of every file under `dir` (the HAR, its segments, the reports). */
function diskBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    n += e.isDirectory() ? diskBytes(p) : statSync(p, { throwIfNoEntry: false })?.size ?? 0;
  }
  return n;
}

const mib = (b: number) => `${(b / 1048576).toFixed(0)} MiB`;

async function memory(total: number): Promise<void> {
  const target = await openLoadTarget(undefined);
  const dir = mkdtempSync(join(tmpdir(), 'hps-bench-proxy-'));
  const proxy = await startStandaloneProxy({ upstream: target.profile.base_url, reportDir: dir });
  const proxyUrl = proxy.url;
  let peak = 0;
  let peakDisk = 0;
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
  const pool = new Pool(proxyUrl, { connections: CONCURRENCY });
  const statuses: Record<number, number> = {};
  const started = performance.now();
  const one = exchange(pool, `Bearer ${target.profile.keys.test}`, statuses);
  let sent = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (sent < total) {
      const n = sent++;
      await one(n).catch(() => {});
      if ((n + 1) % (total / 10) !== 0) continue;
      const disk = diskBytes(dir);
      peakDisk = Math.max(peakDisk, disk);
      console.log(`${n + 1} exchanges · ${((performance.now() - started) / 1000).toFixed(0)} s · peak RSS ${mib(peak)} · now ` +
        `${mib(process.memoryUsage().rss)} · heap ${mib(heapAfterGc())} · disk ${mib(disk)}`);
    }
  }));
  clearInterval(sample);
  await pool.close();
  const result = await proxy.stop();
  const closing = proxy.lines.filter((l) => /^proxy: \d+ exchanges/.test(l));
  const s = (performance.now() - started) / 1000;
  console.log(`read answers: ${JSON.stringify(statuses)}`);
  console.log(`memory: ${result.exchanges} exchanges in ${s.toFixed(0)} s (${(result.exchanges / s).toFixed(0)}/s) · traffic.har ` +
    `${result.harEntries} entries, ${mib(statSync(join(dir, 'traffic.har')).size)} · the report directory at most ${mib(peakDisk)} ` +
    `while it ran, ${mib(diskBytes(dir))} at the end · peak RSS ${mib(peak)}`);
  for (const l of closing) console.log(`    ${l}`);
  await target.close();
}

/** One exchange of the replay: a create one time in ten (and until a Payment is known), else a read or a list. */
function exchange(pool: Pool, authorization: string, statuses: Record<number, number>): (n: number) => Promise<void> {
  const ids: string[] = [];
  return async (n) => {
    if (n % 10 === 0 || ids.length === 0) {
      const res = await pool.request({
        method: 'POST',
        path: '/v1/payments',
        headers: { authorization, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify({ amount: `${1 + (n % 900)}.00`, currency: 'BDT', description: `bench ${n}` }),
      });
      const body = (await res.body.json()) as { id?: string };
      if (body.id && ids.length < 1000) ids.push(body.id);
      return;
    }
    const path = n % 3 === 0 ? '/v1/payments?limit=10' : `/v1/payments/${ids[n % ids.length]}`;
    const res = await pool.request({ method: 'GET', path, headers: { authorization } });
    statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
    await res.body.text();
  };
}

const { values } = parseArgs({
  options: Object.fromEntries(['only', 'rounds', 'seconds', 'connections', 'rate', 'exchanges'].map((k) => [k, { type: 'string' as const }
  ])),
  strict: true,
});
const num = (v: string | undefined, d: number) => (v === undefined ? d : Number(v));
const o = {
  rounds: num(values.rounds, 3), seconds: num(values.seconds, 5), connections: num(values.connections, 4), rate: num(values.rate, 500),
  exchanges: num(values.exchanges, 100_000),
};
const only = (values.only ?? SECTIONS.join(',')).split(',');
const sane = [o.rounds, o.seconds, o.connections].every((x) => Number.isInteger(x) && x >= 1 && x <= 60) && o.rate >= 1 && o.rate <= 100_000
  && Number.isInteger(o.exchanges) && o.exchanges >= 1000 && o.exchanges <= 10_000_000 && only.every((s) => SECTIONS.some((x) => x === s));
if (!sane) {
  console.error(`bench:proxy: --rounds, --seconds, --connections: integers from 1 to 60; --rate 1 to 100000; --exchanges 1000 to ` +
    `10000000; --only takes ${SECTIONS.join(',')}`);
  process.exit(2);
}
if (only.includes('speed') || only.includes('open')) {
  for (const l of await proxySpeed({ ...o, speed: only.includes('speed'), open: only.includes('open') })) console.log(l);
}
if (only.includes('memory')) await memory(o.exchanges);
