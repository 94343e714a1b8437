/**
 * `load --metrics-port` and `--out prometheus-rw` (core/metrics-publish.ts, load/metrics.ts): the
 * endpoint scraped while the run's figures are final (--metrics-hold) gives load.json's counts by
 * operation and status and no key; a remote-write receiver that is down is one line and a count,
 * and the run's verdict is the same; the flags' bad values are usage errors; the Grafana dashboard
 * shipped in docs/examples/grafana/ queries only metrics that are emitted. Against a real
 * Prometheus server: test/infra/prometheus-rw.test.ts.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LoadMetrics } from '../../load/metrics.ts';
import { WorkerMetrics } from '../../load/worker-metrics.ts';
import { ProxyMetrics } from '../../merchant/client/proxy-metrics.ts';
import { parsePromText, sumBy } from '../support/prom-text.ts';
import { cli, readLoadJson, reportDir, runMain, UNREDACTED_KEY } from './helpers.ts';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'hps-conformance.mjs');
const ROOT = join(import.meta.dirname, '..', '..');

/** load.json's answers by `operation status`. */
function countsOf(report: { figures: { raw: { statuses: Record<string, Record<string, number>> } } }): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [op, statuses] of Object.entries(report.figures.raw.statuses)) {
    for (const [status, n] of Object.entries(statuses)) out[`${op} ${status}`] = n;
  }
  return out;
}

/** Runs the CLI, calling `onEndpoint` with the metrics URL once the verdict is printed (the endpoint held meanwhile). */
function runHeld(args: string[], onVerdict: (endpoint: string) => Promise<void>): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HPS_DEBUG: '' } });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    let err = '';
    let out = '';
    let called = false;
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const endpoint = /metrics: (http:\/\/127\.0\.0\.1:\d+)\/metrics/.exec(err)?.[1];
      if (called || !endpoint || !/verdict/.test(out)) return;
      called = true;
      onVerdict(endpoint).catch(reject);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, err });
    });
  });
}

describe('load --metrics-port', () => {
  it('scraped after the run (--metrics-hold): load.json\'s counts by operation and status, checks, thresholds, no key', async () => {
    const dir = reportDir('metrics-port');
    let scraped = '';
    const r = await runHeld(
      ['load', '--duration', '2s', '--rate', '100', '--workers', '2', '--max-p99-ms', '60000', '--metrics-port', '0',
        '--metrics-hold', '3s', '--report', dir],
      async (endpoint) => {
        scraped = await (await fetch(`${endpoint}/metrics`, { signal: AbortSignal.timeout(5000) })).text();
      },
    );
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/^metrics: http:\/\/127\.0\.0\.1:\d+\/metrics \(Prometheus text, while the command runs\)$/m);
    const report = readLoadJson(dir);
    const samples = parsePromText(scraped);
    expect(sumBy(samples, 'hps_load_requests_total', ['operation', 'status'])).toEqual(countsOf(report));
    const counts = sumBy(samples, 'hps_load_request_duration_seconds_count', []);
    expect(counts['']).toBe(report.figures.latency_ms.overall.count);
    for (const s of samples) expect(s.labels).toMatchObject({ run_id: report.run_id, scenario: 'mixed', tool: 'hps-conformance' });
    const thresholds = sumBy(samples, 'hps_load_thresholds', ['threshold']);
    expect(thresholds).toEqual(Object.fromEntries(report.thresholds.filter((t: { status: string }) => t.status !== 'off')
      .map((t: { id: string; status: string }) => [t.id, t.status === 'pass' ? 1 : 0])));
    expect(Object.keys(sumBy(samples, 'hps_load_checks', ['check'])).length).toBeGreaterThan(3);
    expect(scraped).not.toMatch(UNREDACTED_KEY);
  }, 90_000);
});

describe('load --out prometheus-rw', () => {
  it('a receiver that never answers: one line when it first fails, one with the count at the end, rate and verdict unchanged', async () => {
    const dir = reportDir('rw-down');
    // Accepts the connection and never answers: each push ends at its deadline.
    const silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/api/v1/write`;
    try {
      const r = await cli(['load', '--duration', '2s', '--rate', '50', '--connections', '2', '--workers', '1', '--max-p99-ms', '60000',
        '--out', `prometheus-rw=${url}`, '--report', dir]);
      expect(r.code, r.err + r.out).toBe(0);
      const report = readLoadJson(dir);
      expect(report.verdict).toBe('pass');
      expect(report.thresholds.find((t: { id: string }) => t.id === 'rate-reached').status).toBe('pass');
      const lines = r.err.split('\n').filter((l) => l.startsWith('metrics: '));
      expect(lines[0]).toBe(`metrics: remote write to ${url} every 5 s and at the end`);
      expect(lines.filter((l) => / failed \(no answer within 2000 ms\); the run goes on, failures are counted$/.test(l))).toHaveLength(1);
      const summary = new RegExp(`^metrics: [1-9]\\d* of [1-9]\\d* remote-write pushes to ${url} failed \\(the last: no answer`);
      expect(lines.at(-1)).toMatch(summary);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  }, 60_000);

  it('bad values are usage errors (exit 2), before anything starts', async () => {
    for (const [args, message] of [
      [['--out', 'prometheus-rw=ftp://127.0.0.1/x'], /must be an http\(s\) URL/],
      [['--out', 'prometheus-rw=http://u:p@127.0.0.1/x'], /no user-info/],
      [['--out', 'statsd=127.0.0.1:8125'], /ndjson=FILE or prometheus-rw=URL/],
      [['--metrics-hold', '5s'], /needs --metrics-port/],
      [['--metrics-port', '70000'], /integer from 0 to 65535/],
    ] as const) {
      const r = await runMain(['load', '--duration', '1', ...args]);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(message);
    }
  });
});

/** Every name the load and the proxy expose (a family's and its samples': _bucket, _sum, _count). */
async function emittedNames(): Promise<Set<string>> {
  const worker = new WorkerMetrics('w0', { run_id: 'r', scenario: 'mixed' });
  worker.answer('read', 200, 3);
  worker.failure('create', 'timeout');
  const load = new LoadMetrics({ run_id: 'r', scenario: 'mixed' });
  load.fromWorker(await worker.snapshot(true));
  load.fromReport({
    checks: [{ id: 'no-5xx', title: '', status: 'pass', detail: '' }],
    thresholds: [{ id: 'max-p99-ms', status: 'pass', limit: 1, actual: 1, detail: '' }],
    exit_code: 0,
  } as never, []);
  const proxy = new ProxyMetrics();
  proxy.settled({ kind: 'read', status: 200, arrivedMs: 1, answeredMs: 2 } as never);
  proxy.finding('RESP-ERROR-ENVELOPE');
  const text = (await load.registry().metrics()) + (await proxy.registry.metrics());
  return new Set(parsePromText(text).map((s) => s.name));
}

describe('docs/examples/grafana/hps-load.json', () => {
  it('every metric its PromQL queries is one the load or the proxy emits, and each panel queries one', async () => {
    const dashboard = JSON.parse(readFileSync(join(ROOT, 'docs', 'examples', 'grafana', 'hps-load.json'), 'utf8')) as {
      panels: { title: string; targets?: { expr: string }[] }[];
    };
    const emitted = await emittedNames();
    const queried = new Set<string>();
    for (const p of dashboard.panels) {
      for (const t of p.targets ?? []) for (const m of t.expr.matchAll(/\bhps_[a-z0-9_]+\b/g)) queried.add(m[0]);
    }
    expect(queried.size).toBeGreaterThan(4);
    for (const name of queried) expect(emitted, `${name} is queried by the dashboard`).toContain(name);
    const docs = readFileSync(join(ROOT, 'docs', 'load.md'), 'utf8');
    for (const name of emitted) {
      const family = name.replace(/_(bucket|sum|count)$/, '');
      expect(docs, `docs/load.md documents ${family}`).toContain(`\`${family}\``);
    }
  });
});
