/**
 * What `npm run bench:load` measures against and with: nginx and a bare node:http server
 * answering a Payment's exact bytes, wrk, and one bench child process per measured phase
 * (bench-child-main.ts). Every phase reports its rate and the CPU shares of client, server
 * and the rest of the machine (bench-cpu.ts).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '../../core/client.ts';
import { startReferenceProcess } from '../../core/targets/reference-process.ts';
import { cpuSample, cpuShares, machineBusyS, type CpuShares } from './bench-cpu.ts';

const CHILD = fileURLToPath(new URL('./bench-child.mjs', import.meta.url));
export const PIN_CLIENT = ['taskset', '-c', '0'];
export const PIN_SERVER = ['taskset', '-c', '1'];

export interface PhaseResult {
  rps: number;
  cpu: CpuShares;
  /** The generator's median latency (ms; open model: from each request's due time), when it measured one. */
  p50Ms?: number;
}

export interface Server {
  url: string;
  pid: number;
  stop(): void;
}

function run(cmd: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      cmd[0]!,
      cmd.slice(1),
      { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 1 << 20 },
      (e, out, err) => (e ? reject(new Error(`${cmd.slice(0, 4).join(' ')}: ${e.message} ${err}`)) : resolve(out)),
    );
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

/**
 * wrk pinned to core 0. Its CPU comes from the shell that waited for it (cutime + cstime of
 * /proc/$$/stat), so nothing is lost at its exit.
 */
export async function wrkPhase(url: string, key: string, connections: number, seconds: number, serverPid: number): Promise<PhaseResult> {
  const wrk = [...PIN_CLIENT, 'wrk', '-t1', `-c${connections}`, `-d${seconds}s`, '-H', `authorization: Bearer ${key}`, url];
  const before = cpuSample('self', serverPid);
  const out = await run(['sh', '-c', '"$@" || exit $?; cat /proc/$$/stat', 'sh', ...wrk], (seconds + 20) * 1000);
  const after = cpuSample('self', serverPid);
  const m = /Requests\/sec:\s+([\d.]+)/.exec(out);
  if (!m || /Non-2xx/.test(out)) throw new Error(`wrk: unexpected output ${out.slice(0, 300)}`);
  const stat = out.trim().split('\n').at(-1)!;
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const wrkCpuS = (Number(f[13]) + Number(f[14])) / 100;
  const shares = cpuShares({ ...before, client: 0 }, { ...after, client: wrkCpuS });
  return { rps: Number(m[1]), cpu: shares };
}

/** One bench child (generator, workers, bare undici or autocannon); it measures its own window's CPU. */
export async function childPhase(phase: Record<string, unknown>, pin: boolean, serverPid: number): Promise<PhaseResult> {
  // BENCH_CPU_PROF=DIR: each phase process writes a V8 CPU profile there (where the time goes).
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];
  const out = await run(
    [...(pin ? PIN_CLIENT : []), process.execPath, ...prof, CHILD, JSON.stringify({ ...phase, serverPid })],
    ((phase.seconds as number) + 60) * 1000,
  );
  type Out = { requests: number; seconds: number; ok: boolean; cpu: CpuShares; p50Ms?: number };
  const r = JSON.parse(out.trim().split('\n').at(-1)!) as Out;
  if (!r.ok) throw new Error(`${String(phase.engine)}: a check failed or nothing answered`);
  return { rps: r.requests / r.seconds, cpu: r.cpu, ...(r.p50Ms !== undefined ? { p50Ms: r.p50Ms } : {}) };
}

/**
 * nginx answering `body` to every request with the least work it can do: one process
 * (master_process off, so its CPU is one pid's), keep-alive, no access log; pinned to core 1.
 */
export async function startNginx(body: string, headers: Record<string, string>): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), 'hps-bench-nginx-'));
  const port = await freePort();
  const extra = Object.entries(headers).map(([k, v]) => `add_header ${k} "${v}" always;`).join(' ');
  writeFileSync(
    join(dir, 'nginx.conf'),
    `master_process off; worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/error.log; daemon off;
events { worker_connections 1024; }
http { access_log off; client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir}; uwsgi_temp_path ${dir}; scgi_temp_path ${dir};
  server { listen 127.0.0.1:${port}; keepalive_requests 1000000;
    location / { default_type "application/json; charset=utf-8"; ${extra} return 200 '${body.replace(/'/g, "\\'")}'; } } }`,
  );
  const child = spawn(
    PIN_SERVER[0]!,
    [...PIN_SERVER.slice(1), process.env.NGINX ?? 'nginx', '-p', dir, '-c', join(dir, 'nginx.conf')],
    { stdio: 'ignore' },
  );
  await new Promise((r) => setTimeout(r, 500));
  if (child.exitCode !== null || child.pid === undefined) throw new Error(`nginx did not start (exit ${child.exitCode}); see ${dir}/error.log`);
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => void child.kill('SIGTERM') };
}

/** A bare node:http server sending `body` with `headers`, pinned to core 1. */
export async function startBareNode(body: string, headers: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const src = `const b=Buffer.from(${JSON.stringify(body)});const h=${JSON.stringify(headers)};h['content-length']=b.length;
require('node:http').createServer((q,s)=>{q.resume();s.writeHead(200,h);s.end(b)}).listen(${port},'127.0.0.1',()=>console.log('up'))`;
  const proc: ChildProcess = spawn(
    PIN_SERVER[0]!,
    [...PIN_SERVER.slice(1), process.execPath, '-e', src],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((r) => proc.stdout!.once('data', () => r()));
  return { url: `http://127.0.0.1:${port}`, pid: proc.pid!, stop: () => void proc.kill('SIGTERM') };
}

/** Seconds of unmeasured load on a freshly started server before its measured phase. */
export const WARM_S = 2;

export interface FreshServer {
  url: string;
  path: string;
  key: string;
  pid: number;
  stop(): Promise<void> | void;
}

/** A reference server of its own (on core 1 unless `launcher` says otherwise) with one Payment to read, for one phase. */
export async function freshReference(launcher: string[] = PIN_SERVER): Promise<FreshServer> {
  const reference = await startReferenceProcess(launcher);
  const key = reference.profile.keys.test;
  try {
    const client = new Client({ baseUrl: reference.profile.base_url, secrets: [key] });
    const created = await client.createPayment(key, { amount: '100.00', metadata: { conformance_run: 'bench-load' } });
    if (created.status !== 201) throw new Error(`could not create the payment to read (${created.status})`);
    return {
      url: reference.profile.base_url,
      path: `/v1/payments/${created.json.id as string}`,
      key,
      pid: reference.pid,
      stop: () => reference.close(),
    };
  } catch (e) {
    await reference.close();
    throw e;
  }
}

/** /proc is what the CPU shares come from: without it the bench still runs, without shares. */
export const HAS_PROC = machineBusyS() !== null;
