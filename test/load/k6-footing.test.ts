/**
 * `load` on the same footing as `run` and as k6 (issue 23, item 3): a target from --base-url and
 * --key-env; durations with units; thresholds as k6-style expressions judged on the merged
 * histogram; `--out ndjson=FILE` streaming one line per interval while the run goes, and one
 * progress line per interval on a stderr that is not a terminal (CI).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HarnessError } from '../../core/errors.ts';
import { buildFigures, type RawParts } from '../../load/figures.ts';
import { encode, newHistogram, recordMs } from '../../load/histogram.ts';
import { durationOption, parseLoadOptions } from '../../load/options.ts';
import { evaluateExpression, parseThresholdExpression } from '../../load/threshold-expressions.ts';
import { evaluateThresholds } from '../../load/thresholds.ts';
import { startReference } from '../../references/service/index.ts';
import { readLoadJson, reportDir, TMP } from './helpers.ts';
import { execFile } from 'node:child_process';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'hps-conformance.mjs');

function usageError(fn: () => unknown): HarnessError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(HarnessError);
    expect((e as HarnessError).exitCode).toBe(2);
    return e as HarnessError;
  }
  throw new Error('no usage error');
}

describe('durations with units', () => {
  it('30s, 5m, 1500ms, 1m30s and bare seconds; out of range or unreadable is a usage error', () => {
    const d = (v: string) => durationOption({ duration: v }, 'duration', 1, 300);
    expect([d('30s'), d('5m'), d('1500ms'), d('1m30s'), d('10'), d('2.5s')]).toEqual([30, 300, 1.5, 90, 10, 2.5]);
    for (const v of ['2x', '301s', '5m1s', '500ms', '0', 'm', '1h']) usageError(() => d(v));
    expect(parseLoadOptions({ duration: '2m', warmup: '1500ms' })).toMatchObject({ durationS: 120, warmupS: 1.5 });
  });
});

describe('threshold expressions', () => {
  it('parse as k6 writes them, with units; anything else is one usage line', () => {
    expect(parseThresholdExpression('create:p95<250')).toMatchObject({ op: 'create', metric: 'p95', percentile: 95, cmp: '<', value: 250 });
    expect(parseThresholdExpression('read:p99.9<0.8s')).toMatchObject({ op: 'read', percentile: 99.9, value: 800 });
    expect(parseThresholdExpression('errors<0.1%')).toMatchObject({ op: null, metric: 'errors', value: 0.001 });
    expect(parseThresholdExpression('rps>=500')).toMatchObject({ metric: 'rps', cmp: '>=', value: 500 });
    expect(parseThresholdExpression('avg<=20ms')).toMatchObject({ metric: 'mean', value: 20 });
    for (const bad of [
      'p95<25%',
      'errors<2',
      'errors<5ms',
      'rps>5ms',
      'refund:p95<1',
      'p101<1',
      'p95 = 3',
      '',
    ]) usageError(() => parseThresholdExpression(bad));
    expect(parseLoadOptions({ threshold: [
      'create:p95<250',
      'errors<0.1%',
    ] }).thresholds.expressions).toEqual(['create:p95<250', 'errors<0.1%']);
  });

  it('are judged on the merged histogram: a p95 one part meets, the merge of two parts does not', () => {
    const part = (ms: number[]): RawParts => {
      const h = newHistogram();
      for (const v of ms) recordMs(h, v);
      return {
        histograms: { read: encode(h) },
        series: [],
        statuses: { create: {}, read: { '200': ms.length }, list: {} },
        errorKinds: { timeout: 0, connection: 0, other: 0 },
        due: ms.length,
        sentInWindow: ms.length,
        answered: ms.length,
        notSent: 0,
        warmupAnswered: 0,
      };
    };
    const fast = part(Array.from({ length: 100 }, (_, i) => i + 1)); // 1..100 ms
    const slow = part(Array.from({ length: 100 }, () => 1_000));
    const e = parseThresholdExpression('read:p95<500');
    const alone = evaluateExpression(e, buildFigures([fast], null, 1));
    expect(alone.status).toBe('pass');
    expect(alone.actual).toBeCloseTo(95, 0); // HDR: within 0.1%
    const merged = evaluateExpression(e, buildFigures([fast, slow], null, 1));
    expect(merged.status).toBe('fail');
    expect(merged.actual).toBeCloseTo(1_000, -1);
    // No answer to the operation: nothing to judge, so it cannot pass.
    expect(evaluateExpression(
      parseThresholdExpression('create:p50<1000'),
      buildFigures([fast], null, 1),
    )).toMatchObject({ status: 'fail' });
    // The older flags keep their rows; the expressions follow them.
    const rows = evaluateThresholds({ maxP99Ms: 250, minRps: 0, maxErrorRate: 0.01, allowShort: false, expressions: ['read:p95<500', 'errors<0.1%'] }, buildFigures([fast], null, 1));
    expect(rows.map((r) => [r.id, r.status])).toEqual([['max-p99-ms', 'pass'], ['min-rps', 'off'], ['max-error-rate', 'pass'], ['rate-reached', 'off'], ['read:p95<500', 'pass'], ['errors<0.1%', 'pass']]);
  });
});

describe('load --base-url --key-env, --out ndjson, progress per interval', () => {
  let ref: Awaited<ReturnType<typeof startReference>>;
  beforeAll(async () => {
    ref = await startReference({ port: 0, webhookBaseUrl: 'http://127.0.0.1:9' });
  });
  afterAll(async () => ref?.close());

  it('runs against a target from flags, streams one line per interval while it runs, judges the expressions', async () => {
    const dir = reportDir('k6');
    const ndjson = join(TMP, `stream-${Math.random().toString(36).slice(2)}.ndjson`);
    const args = [
      'load',
      '--base-url',
      ref.url,
      '--key-env',
      'HPS_K6_TEST_KEY',
      '--scenario',
      'read',
      '--duration',
      '2s',
      '--warmup',
      '0s',
      '--interval',
      '500ms',
      '--connections',
      '2',
      '--workers',
      '1',
      '--out',
      `ndjson=${ndjson}`,
      '--threshold',
      'read:p99.9<5s',
      '--threshold',
      'errors<0.1%',
      '--report',
      dir,
    ];
    const r = await new Promise<{ code: number; out: string; err: string }>((res) => {
      execFile(process.execPath, [BIN, ...args], { env: { ...process.env, HPS_K6_TEST_KEY: ref.profile.keys.test, CI: 'true' }, timeout: 120_000 }, (e, out, err) => res({ code: e ? ((e as { code?: number }).code ?? 1) : 0, out, err }));
    });
    expect(r.code, r.err + r.out).toBe(0);
    const report = readLoadJson(dir);
    expect(report.target.embedded).toBe(false);
    expect(report.options.duration_s).toBe(2);
    expect(report.thresholds.filter((t: { id: string }) => t.id.includes(':') || t.id.startsWith('errors<')).map((t: { id: string; status: string }) => [t.id, t.status])).toEqual([['read:p99.9<5s', 'pass'], ['errors<0.1%', 'pass']]);
    const lines = readFileSync(ndjson, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    console.log(`ndjson: ${lines.length} lines; first ${JSON.stringify(lines[0])}`);
    expect(lines.map((l) => l.second)).toEqual([0.5, 1, 1.5, 2]);
    expect(lines.every((l) => l.type === 'interval' && l.run_id === report.run_id && typeof l.so_far.p99_ms === 'number')).toBe(true);
    expect(lines.reduce((a, l) => a + l.responses, 0)).toBeLessThanOrEqual(report.figures.responses);
    // Streamed while the run went: the first line was written at least a second before the last.
    expect(Date.parse(lines.at(-1).at) - Date.parse(lines[0].at)).toBeGreaterThanOrEqual(1_000);
    // stderr is not a terminal here: one progress line per interval.
    expect(r.err.split('\n').filter((l) => /^load \d+\.\d\/2 s · /.test(l))).toHaveLength(4);
  }, 120_000);
});
