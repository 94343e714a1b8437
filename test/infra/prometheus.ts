/**
 * Prometheus from Debian's package, started by the test on a free loopback port with its remote-write
 * receiver on and its storage in a temp dir: nothing installed, nothing in /etc touched, no scrape
 * of its own (an empty configuration). `query` is the HTTP API's instant query.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../service/harness/main/embedded.ts';
import { stopDaemon, untilReady } from './daemon.ts';
import { findTool } from './nginx.ts';

export interface RunningPrometheus {
  url: string;
  /** `/api/v1/query`: the vector's samples (labels, value). */
  query(promql: string): Promise<{ metric: Record<string, string>; value: number }[]>;
  log(): string;
  close(): Promise<void>;
}

/** One line saying how to get the binary, or null when it is there. */
export function missingPrometheus(find: (name: string) => string | null = findTool): string | null {
  return find('prometheus') === null ? 'prometheus not found on PATH: install Debian\'s package (apt-get install --no-install-recommends ' +
    'prometheus); .ci/run does' : null;
}

export async function startPrometheus(): Promise<RunningPrometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'hps-prometheus-'));
  writeFileSync(join(dir, 'prometheus.yml'), 'global:\n  scrape_interval: 15s\nscrape_configs: []\n');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  const child: ChildProcess = spawn(findTool('prometheus')!, [
    `--config.file=${join(dir, 'prometheus.yml')}`,
    `--storage.tsdb.path=${join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--web.enable-remote-write-receiver',
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (c: Buffer) => (log = (log + c.toString()).slice(-20_000)));
  child.stderr!.on('data', (c: Buffer) => (log = (log + c.toString()).slice(-20_000)));
  const close = () => stopDaemon(child, dir);
  const isReady = () => fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(1000) }).then((r) => r.ok, () => false);
  if (!await untilReady(child, isReady, { timeoutMs: 30_000, pollMs: 250 })) {
    await close();
    throw new Error(`prometheus did not become ready on ${url}: ${log.slice(-2000)}`);
  }
  return {
    url,
    log: () => log,
    close,
    async query(promql) {
      const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`, { signal: AbortSignal.timeout(10_000) });
      type Answer = { status: string; error?: string; data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
      const body = await res.json() as Answer;
      if (body.status !== 'success') throw new Error(`${promql}: ${body.error}`);
      return body.data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
    },
  };
}
