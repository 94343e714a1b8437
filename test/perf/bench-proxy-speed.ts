/**
 * npm run bench:proxy's speed sections: the validating proxy (`hps-conformance proxy`, every rule
 * on, traffic.har written) against a bare pass-through proxy on the same runtime (bare-proxy.mjs:
 * node:http in, undici out, no judging), each in a process of its own pinned to core 1, both in
 * front of one reference server (core 0, with wrk or the generator: the proxy is the side both are
 * bound by), interleaved A B A B:
 *
 *  speed  wrk through each, same connections and duration: the throughput ratio (goal ≥ 0.5), and
 *         per proxy CPU second (steadier on a shared machine);
 *  open   the project's generator in the open model at a fixed rate (default 500 req/s), its latency
 *         from each request's due time (wrk2's correction): the p50 the judging adds over the bare
 *         proxy (goal ≤ 1 ms), the median of the per-round differences.
 *
 * At the end the validating proxy is stopped as a user stops it (SIGTERM) and its closing lines
 * printed: how many exchanges it relayed and judged, and any it could not judge (never silent).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './bench-cpu.ts';
import { interleave, range, ratioLine, type Results } from './bench-ratios.ts';
import { childPhase, freshReference, PIN_CLIENT, PIN_SERVER, WARM_S, wrkPhase, type FreshServer } from './bench-targets.ts';

const BIN = fileURLToPath(new URL('../../bin/hps-conformance.mjs', import.meta.url));
const BARE = fileURLToPath(new URL('./bare-proxy.mjs', import.meta.url));
export const GOALS = { throughput: 0.5, addedP50Ms: 1 } as const;

interface ProxyProcess {
  url: string;
  pid: number;
  /** Everything it printed on stdout. */
  output: () => string;
  stop(): Promise<void>;
}

/** Starts `args` pinned to core 1 and waits for the first http:// URL it prints. */
async function startPrinting(args: string[]): Promise<ProxyProcess> {
  const argv = [...PIN_SERVER.slice(1), process.execPath, ...args];
  const child: ChildProcess = spawn(PIN_SERVER[0]!, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args[0]} did not start in 30 s`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      const m = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}: ${out.slice(0, 300)}`)));
  });
  const stop = async (): Promise<void> => {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    await exited;
    clearTimeout(timer);
  };
  return { url, pid: child.pid!, output: () => out, stop };
}

export interface SpeedOptions {
  rounds: number;
  seconds: number;
  connections: number;
  rate: number;
  speed: boolean;
  open: boolean;
}

/** The speed and open sections; the lines to print. */
export async function proxySpeed(o: SpeedOptions): Promise<string[]> {
  const reference = await freshReference(PIN_CLIENT);
  const dir = mkdtempSync(join(tmpdir(), 'hps-bench-proxy-speed-'));
  const procs: ProxyProcess[] = [];
  try {
    const up = reference.url;
    procs.push(await startPrinting([BIN, 'proxy', '--upstream', up, '--report', dir]), await startPrinting([BARE, up]));
    const [validating, bare] = procs as [ProxyProcess, ProxyProcess];
    const lines = [`bench:proxy · ${o.rounds} rounds, interleaved · ${o.connections} connections · GET /v1/payments/{id} · the ` +
      'proxies on core 1, the reference and the client (wrk, the generator) on core 0 (taskset)'];
    const via = (p: ProxyProcess): FreshServer => ({ ...reference, url: p.url, pid: p.pid });
    for (const p of procs) await wrkPhase(p.url + reference.path, reference.key, o.connections, WARM_S, p.pid);
    if (o.speed) lines.push(await speed(o, via(validating), via(bare)));
    if (o.open) lines.push(await open(o, via(validating), via(bare)));
    await validating.stop();
    const closing = validating.output().split('\n').filter((l) => /^proxy: /.test(l));
    lines.push('the validating proxy at its end (SIGTERM):', ...closing.map((l) => `    ${l}`));
    return lines;
  } finally {
    for (const p of procs) await p.stop();
    await reference.stop();
  }
}

async function speed(o: SpeedOptions, validating: FreshServer, bare: FreshServer): Promise<string> {
  const phase = (s: FreshServer) => () => wrkPhase(s.url + s.path, s.key, o.connections, o.seconds, s.pid);
  const r = await interleave(o.rounds, { validating: phase(validating), bare: phase(bare) });
  return [
    ratioLine(`speed: validating vs bare proxy (wrk -c${o.connections}, ${o.seconds} s)`, r, 'validating', 'bare', GOALS.throughput,
      'server'),
    `    CPU per request of the proxy (server): validating ${usPerRequest(r.validating!)}, bare ${usPerRequest(r.bare!)}`,
  ].join('\n');
}

function usPerRequest(rs: Results[string]): string {
  const xs = rs.map((x) => (x.cpu.server && x.rps ? (x.cpu.server / x.rps) * 1e6 : null)).filter((x): x is number => x !== null);
  return xs.length ? `${median(xs).toFixed(0)} µs` : '— (no /proc)';
}

const reached = (rs: Results[string], rate: number): string => ((median(rs.map((x) => x.rps)) / rate) * 100).toFixed(0);

async function open(o: SpeedOptions, validating: FreshServer, bare: FreshServer): Promise<string> {
  const id = validating.path.split('/').at(-1);
  const phase = (s: FreshServer) => () => childPhase(
    { engine: 'generator', url: s.url, id, key: s.key, connections: o.connections, seconds: o.seconds, rate: o.rate },
    true,
    s.pid,
  );
  const r = await interleave(o.rounds, { validating: phase(validating), bare: phase(bare) });
  const p50 = (x: Results[string][number]) => x.p50Ms ?? Number.NaN;
  const added = r.validating!.map((x, i) => p50(x) - p50(r.bare![i]!));
  const m = median(added);
  const ms = (rs: Results[string]) => rs.map((x) => p50(x).toFixed(2)).join(' ');
  return [
    `open: ${o.rate} req/s through each (the generator, open model, latency from the due time), p50 added by judging: ` +
      `${m.toFixed(2)} ms (median of ${added.length} rounds; range ${range(added)}) · goal ≤ ${GOALS.addedP50Ms} ms ` +
      `${m <= GOALS.addedP50Ms ? 'MET' : 'NOT MET'}`,
    `    p50 ms per round: validating ${ms(r.validating!)} · bare ${ms(r.bare!)}; reached ` +
      `${reached(r.validating!, o.rate)}% / ${reached(r.bare!, o.rate)}% of the rate`,
  ].join('\n');
}
