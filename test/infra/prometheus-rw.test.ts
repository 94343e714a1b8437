/**
 * `load --out prometheus-rw=URL` into a real Prometheus (Debian's package, started here on a free
 * loopback port with its remote-write receiver, storage in a temp dir): after a short run against
 * the embedded reference, PromQL over the HTTP API gives load.json's counts by operation and status,
 * and histogram_quantile(0.99) over the pushed histogram lies within one bucket of load.json's p99;
 * the checks and thresholds are there, and no series carries a key. Without the prometheus binary
 * this fails with one line saying how to install it (as the nginx tests do).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATENCY_BUCKETS_S } from '../../core/metrics-publish.ts';
import { readLoadJson, reportDir, runMain, UNREDACTED_KEY } from '../load/helpers.ts';
import { missingPrometheus, startPrometheus, type RunningPrometheus } from './prometheus.ts';

/** The bucket (lower, upper bound, seconds) holding `s`. */
function bucketOf(s: number): [number, number] {
  const i = LATENCY_BUCKETS_S.findIndex((b) => s <= b);
  if (i < 0) return [LATENCY_BUCKETS_S.at(-1)!, Infinity];
  return [i === 0 ? 0 : LATENCY_BUCKETS_S[i - 1]!, LATENCY_BUCKETS_S[i]!];
}

describe('without the prometheus binary', () => {
  it('the test fails with one line saying how to install it', () => {
    expect(missingPrometheus(() => null)).toBe('prometheus not found on PATH: install Debian\'s package (apt-get install ' +
      '--no-install-recommends prometheus); .ci/run does');
    expect(missingPrometheus(() => '/usr/bin/prometheus')).toBeNull();
  });
});

describe('load --out prometheus-rw into a real Prometheus (Debian package)', () => {
  const missing = missingPrometheus();
  let prom: RunningPrometheus;
  beforeAll(async () => {
    if (missing !== null) throw new Error(missing);
    prom = await startPrometheus();
  }, 30_000);
  afterAll(async () => {
    await prom?.close();
  });

  it('PromQL: the counts by operation and status are load.json\'s, the p99 within a bucket of its p99', async () => {
    const started = Date.now();
    const dir = reportDir('prometheus-rw');
    const r = await runMain(['load', '--duration', '4s', '--rate', '150', '--connections', '4', '--workers', '2', '--max-p99-ms', '60000',
      '--out', `prometheus-rw=${prom.url}/api/v1/write`, '--report', dir]);
    expect(r.code, r.err + r.out).toBe(0);
    const report = readLoadJson(dir);
    const run = `run_id="${report.run_id}"`;

    const counted = await prom.query(`sum by (operation, status) (hps_load_requests_total{${run}})`);
    const inProm = Object.fromEntries(counted.map((s) => [`${s.metric.operation} ${s.metric.status}`, s.value]));
    const inJson: Record<string, number> = {};
    for (const [op, statuses] of Object.entries(report.figures.raw.statuses as Record<string, Record<string, number>>)) {
      for (const [status, n] of Object.entries(statuses)) inJson[`${op} ${status}`] = n;
    }
    expect(inProm).toEqual(inJson);
    const total = (await prom.query(`sum(hps_load_request_duration_seconds_count{${run}})`))[0]!.value;
    expect(total).toBe(report.figures.latency_ms.overall.count);

    const p99 = (await prom.query(`histogram_quantile(0.99, sum by (le) (hps_load_request_duration_seconds_bucket{${run}}))`))[0]!.value;
    const jsonP99 = report.figures.latency_ms.overall.p99 / 1000;
    const [lo, hi] = bucketOf(jsonP99);
    console.log(`prometheus-rw: load.json ${report.figures.latency_ms.overall.count} answers ${JSON.stringify(inJson)}, p99 ` +
      `${(jsonP99 * 1000).toFixed(3)} ms (bucket ${lo * 1000}..${hi * 1000} ms); PromQL ${total} answers, histogram_quantile(0.99) ` +
      `${(p99 * 1000).toFixed(3)} ms; ${((Date.now() - started) / 1000).toFixed(1)} s`);
    // HDR's p99 is the top of its own 0.1% bucket: the PromQL figure lies in that bucket or within a bucket's width of it.
    expect(Math.abs(p99 - jsonP99)).toBeLessThanOrEqual(hi - lo);

    const thresholds = await prom.query(`hps_load_thresholds{${run}}`);
    const judged = (report.thresholds as { id: string; status: string }[]).filter((t) => t.status !== 'off');
    expect(Object.fromEntries(thresholds.map((s) => [s.metric.threshold, s.value])))
      .toEqual(Object.fromEntries(judged.map((t) => [t.id, t.status === 'pass' ? 1 : 0])));
    const checks = await prom.query(`hps_load_checks{${run}}`);
    expect(checks.length).toBe((report.checks as { status: string }[]).filter((c) => c.status !== 'skip').length);
    expect((await prom.query(`hps_load_run_passed{${run}}`))[0]!.value).toBe(1);

    const every = await prom.query(`{${run}}`);
    expect(every.length).toBeGreaterThan(20);
    for (const s of every) expect(s.metric).toMatchObject({ scenario: 'mixed', tool: 'hps-conformance' });
    expect(JSON.stringify(every)).not.toMatch(UNREDACTED_KEY);
  }, 90_000);
});
