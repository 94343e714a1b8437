/**
 * `hps-conformance load` against the embedded reference server: a short run passes with every
 * correctness check green; thresholds set out of reach make it exit 1.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, readLoadJson, reportDir, runMain, UNREDACTED_KEY, withEnv } from './helpers.ts';

describe('hps-conformance load (embedded reference)', () => {
  it('a 2-second mixed run passes with every correctness check green', async () => {
    const dir = reportDir('pass');
    // The latency threshold is not what this test is about (the machine is shared): it is generous here.
    const r = await cli(['load', '--duration', '2', '--connections', '4', '--max-p99-ms', '60000', '--report', dir]);
    // stderr (not a terminal here) holds only the progress: the start line, then one line per interval.
    const progress = r.err.trim().split('\n');
    expect(progress[0]).toMatch(/^load: closed model · /);
    expect(progress.slice(1).every((l) => /^load \d+\.\d\/2 s · \d+(\.\d)? req\/s · p50 [\d.]+ ms · p99 [\d.]+ ms so far · errors \d+ \([\d.]+%\)/.test(l)), r.err).toBe(true);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(r.code).toBe(0);
    const report = readLoadJson(dir);
    expect(report.verdict).toBe('pass');
    expect(report.target.embedded).toBe(true);
    expect(report.options.scenario).toBe('mixed');
    const checks = Object.fromEntries(report.checks.map((c: { id: string; status: string }) => [c.id, c.status]));
    expect(checks).toMatchObject({
      'read-pool': 'pass',
      'no-5xx': 'pass',
      'create-201-payment': 'pass',
      'created-exist-after-run': 'pass',
      'read-own-payments': 'pass',
      'list-payment-list': 'pass',
    });
    expect(['pass', 'skip']).toContain(checks['idempotent-replay']);
    expect(Object.values(checks)).not.toContain('fail');
    const f = report.figures;
    expect(f.responses).toBeGreaterThan(0);
    expect(f.errors.rate).toBe(0);
    for (const op of ['create', 'read', 'list']) {
      expect(f.latency_ms.by_operation[op].count).toBeGreaterThan(0);
      expect(f.latency_ms.by_operation[op].p99).toBeGreaterThanOrEqual(f.latency_ms.by_operation[op].p50);
    }
    expect(f.status_codes['201']).toBeGreaterThan(0);
    expect(Object.keys(f.status_codes).every((s) => Number(s) < 300)).toBe(true);
    // The human table, and no secret anywhere.
    expect(r.out).toMatch(/^overall\s+\d+/m);
    expect(r.out).toContain('verdict PASS');
    const md = readFileSync(join(dir, 'load.md'), 'utf8');
    const html = readFileSync(join(dir, 'load.html'), 'utf8');
    const junit = readFileSync(join(dir, 'load.junit.xml'), 'utf8');
    for (const text of [r.out, JSON.stringify(report), md, html, junit]) expect(text).not.toMatch(UNREDACTED_KEY);
    // The renderings: percentile table, inline SVG series, verdicts; one JUnit testcase per threshold.
    expect(html).toMatch(/<th>p99\.99 ms<\/th>/);
    expect(html).toMatch(/<svg[^>]*aria-label="latency over time"[\s\S]*<polyline/);
    expect(html).not.toMatch(/<script/);
    for (const t of report.thresholds) expect(junit).toContain(`name="${t.id}"`);
    expect((junit.match(/classname="load.thresholds"/g) ?? []).length).toBe(report.thresholds.length);
    expect(f.raw.histograms.read).toMatch(/^HISTFAAA/);
    expect(f.series.length).toBeGreaterThanOrEqual(1);
    expect(report.options.workers).toBeGreaterThanOrEqual(1);
  });

  it('idempotency-storm: one key on every connection at once creates exactly one payment per round', async () => {
    const dir = reportDir('storm');
    const r = await runMain([
      'load',
      '--scenario',
      'idempotency-storm',
      '--duration',
      '1',
      '--warmup',
      '0',
      '--connections',
      '8',
      '--workers',
      '1',
      '--max-p99-ms',
      '60000',
      '--report',
      dir,
    ]);
    expect(r.code, r.out).toBe(0);
    const report = readLoadJson(dir);
    const storm = report.checks.find((c: { id: string }) => c.id === 'idempotency-storm');
    expect(storm.status).toBe('pass');
    expect(storm.detail).toMatch(/each list exactly one payment/);
    expect(report.figures.errors.rate).toBe(0);
  });

  it('exits 1 when a threshold is set out of reach (--max-p99-ms 0, --min-rps 10^9)', async () => {
    const p99 = { dir: reportDir('p99'), r: undefined as unknown as Awaited<ReturnType<typeof runMain>> };
    // With GitHub Actions' variables, as `run` does: load.md appended to the step summary, one annotation per failed threshold.
    const summary = join(reportDir('gh'), '..', `summary-${process.pid}.md`);
    writeFileSync(summary, '# earlier step\n');
    p99.r = await withEnv({ GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary }, () =>
      runMain(['load', '--scenario', 'list', '--duration', '1', '--connections', '2', '--max-p99-ms', '0', '--report', p99.dir]),
    );
    expect(readFileSync(summary, 'utf8')).toBe(`# earlier step\n${readFileSync(join(p99.dir, 'load.md'), 'utf8')}\n`);
    expect(p99.r.out).toMatch(/^::error title=load max-p99-ms::p99 latency .*> 0 ms$/m);
    expect(p99.r.out.match(/^::error /gm)).toHaveLength(1);
    const rps = { dir: reportDir('rps'), r: undefined as unknown as Awaited<ReturnType<typeof runMain>> };
    rps.r = await runMain([
      'load',
      '--scenario',
      'list',
      '--duration',
      '1',
      '--connections',
      '2',
      '--max-p99-ms',
      '60000',
      '--min-rps',
      '1000000000',
      '--report',
      rps.dir,
    ]);
    expect(p99.r.code).toBe(1);
    const t1 = readLoadJson(p99.dir).thresholds.find((t: { id: string }) => t.id === 'max-p99-ms');
    expect(t1.status).toBe('fail');
    expect(readLoadJson(p99.dir).checks.every((c: { status: string }) => c.status !== 'fail')).toBe(true);
    expect(p99.r.out).toContain('verdict FAIL');

    expect(rps.r.code).toBe(1);
    const t2 = readLoadJson(rps.dir).thresholds.find((t: { id: string }) => t.id === 'min-rps');
    expect(t2.status).toBe('fail');
    expect(readLoadJson(rps.dir).thresholds.find((t: { id: string }) => t.id === 'max-p99-ms').status).toBe('pass');
  });
});
