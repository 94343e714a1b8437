/**
 * npm run bench:proxy — the validating proxy's memory over a long run: N exchanges (default 100 000,
 * about an hour of a busy merchant application) replayed quickly through `proxy` to the reference
 * server in a process of its own (so its Payments are not counted here), 16 at a time: one create
 * in ten (its own Idempotency-Key), the rest reads of known Payments and lists. Prints the peak RSS
 * of this process (the proxy, its judge state and the streamed HAR writer) at every tenth of the
 * run, the kept log and the HAR's size: flat figures are the bound holding.
 *
 *   npm run bench:proxy [-- --exchanges N]     (node --expose-gc: the heap is read after a full collection)
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { runProxy } from '../../merchant/client/proxy-run.ts';
import { openLoadTarget } from '../../core/targets/reference-process.ts';

const CONCURRENCY = 16;

/** The heap in use after a full collection when node runs with --expose-gc (npm run bench:proxy does), else as it is. */
function heapAfterGc(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

const { values } = parseArgs({ options: { exchanges: { type: 'string', default: '100000' } } });
const total = Number(values.exchanges);
if (!Number.isInteger(total) || total < 1000 || total > 10_000_000) throw new Error('--exchanges: a whole number from 1000 to 10000000');

const target = await openLoadTarget(undefined);
const dir = mkdtempSync(join(tmpdir(), 'hps-bench-proxy-'));
let stop = () => {};
let proxyUrl = '';
const proxy = runProxy({
  upstream: target.profile.base_url,
  reportDir: dir,
  stop: new Promise<void>((r) => (stop = r)),
  log: (l) => (proxyUrl ||= /proxy: (http:\/\/\S+)/.exec(l)?.[1] ?? ''),
  live: () => {},
});
while (!proxyUrl) await new Promise((r) => setTimeout(r, 20));

let peak = 0;
const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
const pool = new Pool(proxyUrl, { connections: CONCURRENCY });
const auth = { authorization: `Bearer ${target.profile.keys.test}` };
const ids: string[] = [];
let sent = 0;
const statuses: Record<number, number> = {};
const started = performance.now();
const mib = (b: number) => `${(b / 1048576).toFixed(0)} MiB`;

async function one(n: number): Promise<void> {
  if (n % 10 === 0 || ids.length === 0) {
    const res = await pool.request({
      method: 'POST',
      path: '/v1/payments',
      headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ amount: `${1 + (n % 900)}.00`, currency: 'BDT', description: `bench ${n}` }),
    });
    const body = (await res.body.json()) as { id?: string };
    if (body.id && ids.length < 1000) ids.push(body.id);
    return;
  }
  const path = n % 3 === 0 ? '/v1/payments?limit=10' : `/v1/payments/${ids[n % ids.length]}`;
  const res = await pool.request({ method: 'GET', path, headers: auth });
  statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
  await res.body.text();
}

await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
  while (sent < total) {
    const n = sent++;
    await one(n).catch(() => {});
    if ((n + 1) % (total / 10) === 0) console.log(`${n + 1} exchanges · ${((performance.now() - started) / 1000).toFixed(0)} s · peak RSS ${mib(peak)} · now ${mib(process.memoryUsage().rss)} · heap ${mib(heapAfterGc())}`);
  }
}));
clearInterval(sample);
await pool.close();
stop();
const result = await proxy;
console.log(`read answers: ${JSON.stringify(statuses)}`);
console.log(`proxy: ${result.exchanges} exchanges judged · traffic.har ${result.harEntries} entries, ${mib(statSync(join(
  dir,
  'traffic.har',
)).size)} · peak RSS ${mib(peak)} over ${((performance.now() - started) / 1000).toFixed(0)} s`);
await target.close();
