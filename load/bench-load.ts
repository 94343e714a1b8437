/**
 * npm run bench:load — ratios measured interleaved (A B A B) in one run, on a shared machine:
 *
 *  (wrk, taskset and nginx — NGINX=path to override — must be installed.)
 *
 *  1. the generator (closed model, every correctness check on) vs wrk, same path and
 *     connections, one core each (taskset), against nginx answering a Payment's exact bytes;
 *  2. the generator vs bare undici and bare autocannon on the same path (same pinning);
 *  3. --workers 2 vs --workers 1 (unpinned: two cores for the generator, nginx competing);
 *  4. the reference server vs a bare node:http server sending the same bytes (wrk on core 0,
 *     the server on core 1), GET /v1/payments/{id}.
 *
 *   tsx load/bench-load.ts [--seconds S per phase, default 3] [--rounds N, default 2] [--connections N, default 10]
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client, closeAllPools } from '../core/client.ts';
import { startReferenceProcess } from '../targets/reference-process.ts';

const CHILD = fileURLToPath(new URL('./bench-child.mjs', import.meta.url));
const PIN_CLIENT = ['taskset', '-c', '0'];
const PIN_SERVER = ['taskset', '-c', '1'];

function run(cmd: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd[0]!, cmd.slice(1), { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 1 << 20 }, (e, out, err) => (e ? reject(new Error(`${cmd.slice(0, 4).join(' ')}: ${e.message} ${err}`)) : resolve(out)));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function wrkRps(url: string, key: string, connections: number, seconds: number): Promise<number> {
  const out = await run([...PIN_CLIENT, 'wrk', '-t1', `-c${connections}`, `-d${seconds}s`, '-H', `authorization: Bearer ${key}`, url], (seconds + 20) * 1000);
  const m = /Requests\/sec:\s+([\d.]+)/.exec(out);
  if (!m || /Non-2xx/.test(out)) throw new Error(`wrk: unexpected output ${out.slice(0, 300)}`);
  return Number(m[1]);
}

async function childRps(phase: Record<string, unknown>, pin: boolean): Promise<number> {
  const out = await run([...(pin ? PIN_CLIENT : []), process.execPath, CHILD, JSON.stringify(phase)], ((phase.seconds as number) + 60) * 1000);
  const r = JSON.parse(out.trim().split('\n').at(-1)!) as { requests: number; seconds: number; ok: boolean };
  if (!r.ok) throw new Error(`${String(phase.engine)}: a check failed or nothing answered`);
  return r.requests / r.seconds;
}

/** nginx answering `body` to every request, one worker process pinned to core 1. */
async function startNginx(body: string, headers: Record<string, string>): Promise<{ url: string; stop(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'hps-bench-nginx-'));
  const port = await freePort();
  const extra = Object.entries(headers).map(([k, v]) => `add_header ${k} "${v}" always;`).join(' ');
  writeFileSync(
    join(dir, 'nginx.conf'),
    `worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/error.log; daemon off;
events { worker_connections 1024; }
http { access_log off; client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir}; uwsgi_temp_path ${dir}; scgi_temp_path ${dir};
  server { listen 127.0.0.1:${port}; keepalive_requests 1000000;
    location / { default_type "application/json; charset=utf-8"; ${extra} return 200 '${body.replace(/'/g, "\\'")}'; } } }`,
  );
  const child = spawn(PIN_SERVER[0]!, [...PIN_SERVER.slice(1), process.env.NGINX ?? 'nginx', '-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 500));
  return { url: `http://127.0.0.1:${port}`, stop: () => void child.kill('SIGTERM') };
}

/** A bare node:http server sending `body` with `headers`, pinned to core 1. */
async function startBareNode(body: string, headers: Record<string, string>): Promise<{ url: string; proc: ChildProcess }> {
  const port = await freePort();
  const src = `const b=Buffer.from(${JSON.stringify(body)});const h=${JSON.stringify(headers)};h['content-length']=b.length;
require('node:http').createServer((q,s)=>{q.resume();s.writeHead(200,h);s.end(b)}).listen(${port},'127.0.0.1',()=>console.log('up'))`;
  const proc = spawn(PIN_SERVER[0]!, [...PIN_SERVER.slice(1), process.execPath, '-e', src], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((r) => proc.stdout!.once('data', () => r()));
  return { url: `http://127.0.0.1:${port}`, proc };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (x: number): string => x.toFixed(0).padStart(8);

/** Runs the named phases in turn, `rounds` times (A B A B …); returns the rates by name. */
async function interleave(rounds: number, phases: Record<string, () => Promise<number>>): Promise<Record<string, number[]>> {
  const out: Record<string, number[]> = Object.fromEntries(Object.keys(phases).map((k) => [k, []]));
  for (let i = 0; i < rounds; i += 1) for (const [name, f] of Object.entries(phases)) out[name]!.push(await f());
  return out;
}

function ratioLine(label: string, r: Record<string, number[]>, a: string, b: string, goal: number): string {
  const pairs = r[a]!.map((x, i) => x / r[b]![i]!);
  const m = median(pairs);
  return `${label.padEnd(44)} ${a} ${fmt(median(r[a]!))} req/s · ${b} ${fmt(median(r[b]!))} req/s · ratio ${m.toFixed(2)} (pairs ${pairs.map((x) => x.toFixed(2)).join(' ')}; goal ≥ ${goal}) ${m >= goal ? 'MET' : 'NOT MET'}`;
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { seconds: { type: 'string' }, rounds: { type: 'string' }, connections: { type: 'string' } }, strict: true });
  const seconds = Number(values.seconds ?? 3);
  const rounds = Number(values.rounds ?? 2);
  const connections = Number(values.connections ?? 10);
  if (![seconds, rounds, connections].every((x) => Number.isInteger(x) && x >= 1 && x <= 60)) {
    console.error('bench:load: --seconds, --rounds and --connections are integers from 1 to 60');
    return 2;
  }
  const reference = await startReferenceProcess(PIN_SERVER);
  let nginx: { url: string; stop(): void } | null = null;
  let bare: { url: string; proc: ChildProcess } | null = null;
  try {
    const key = reference.profile.keys.test;
    const client = new Client({ baseUrl: reference.profile.base_url, secrets: [key] });
    const created = await client.createPayment(key, { amount: '100.00', metadata: { conformance_run: 'bench-load' } });
    if (created.status !== 201) throw new Error(`could not create the payment to read (${created.status})`);
    const id = created.json.id as string;
    const got = await client.getPayment(key, id);
    const headers: Record<string, string> = {};
    for (const k of ['content-type', 'cache-control', 'request-id']) if (got.headers[k]) headers[k] = String(got.headers[k]);
    nginx = await startNginx(got.text, { 'cache-control': 'no-store', 'request-id': headers['request-id'] ?? 'req_x' });
    bare = await startBareNode(got.text, headers);
    const path = `/v1/payments/${id}`;
    const phase = (engine: string, url: string, extra: Record<string, unknown> = {}) => ({ engine, url, id, key, connections, seconds, ...extra });
    console.log(`bench:load · ${rounds} rounds × ${seconds} s per phase, interleaved · ${connections} connections · GET /v1/payments/{id} · client on core 0, server on core 1 (taskset)`);

    const g = await interleave(rounds, { generator: () => childRps(phase('generator', nginx!.url), true), wrk: () => wrkRps(nginx!.url + path, key, connections, seconds) });
    console.log(ratioLine('generator vs wrk (nginx, one core each)', g, 'generator', 'wrk', 0.5));
    const b = await interleave(rounds, { generator: () => childRps(phase('generator', nginx!.url), true), undici: () => childRps(phase('undici', nginx!.url), true), autocannon: () => childRps(phase('autocannon', nginx!.url), true) });
    console.log(ratioLine('generator vs bare undici (nginx)', b, 'generator', 'undici', 0.8));
    console.log(ratioLine('generator vs bare autocannon (nginx)', b, 'generator', 'autocannon', 0.8));
    const w = await interleave(rounds, { workers2: () => childRps(phase('workers', nginx!.url, { workers: 2 }), false), workers1: () => childRps(phase('workers', nginx!.url, { workers: 1 }), false) });
    console.log(ratioLine('--workers 2 vs 1 (unpinned, nginx competes)', w, 'workers2', 'workers1', 1.7));
    const r = await interleave(rounds, { reference: () => wrkRps(reference.profile.base_url + path, key, connections, seconds), bare: () => wrkRps(bare!.url + path, key, connections, seconds) });
    console.log(ratioLine('reference vs bare node:http (wrk)', r, 'reference', 'bare', 0.8));
    console.log('(a shared, noisy 2-core machine: ratios of interleaved phases, not absolute numbers)');
    return 0;
  } finally {
    nginx?.stop();
    bare?.proc.kill('SIGTERM');
    await closeAllPools();
    await reference.close();
  }
}

process.exitCode = await main();
