/**
 * The plots of load.html and `load compare` (results/render/load-plots.ts, load-charts.ts) and the
 * data they draw (load/histogram.ts distributionOf, load/timeline.ts): the percentile axis as the
 * HdrHistogram plotter maps it, the ticks, a run of one interval, a run with no answer, a huge run
 * kept bounded, and a load.json read back that holds anything but what load writes.
 */
import { deflateSync } from 'node:zlib';
import * as hdr from 'hdr-histogram-js';
import { describe, expect, it } from 'vitest';
import type { LoadReportModel } from '../../catalogue/report/load-model.ts';
import { buildFigures } from '../../load/figures.ts';
import { decodeUntrusted, distributionOf, encode, newHistogram, recordMs } from '../../load/histogram.ts';
import { bucketSeconds, MAX_TIMELINE_BUCKETS, mergeTimelines, TimelineTally } from '../../load/timeline.ts';
import { renderLoadHtml } from '../../results/render/load-html.ts';
import { lineChart, MAX_POINTS, niceTicks, percentileTicks, percentileX, ratePoints, thin } from '../../results/render/load-plots.ts';
import { syntheticParts, syntheticReport } from '../load/plot-fixture.ts';

describe('the percentile axis (HdrHistogram plotter: x = log10(1/(1-p)))', () => {
  it('maps 0%, 90%, 99%, 99.9% … to 0, 1, 2, 3 …, capped at six nines', () => {
    expect(percentileX(0)).toBe(0);
    for (const [p, x] of [[90, 1], [99, 2], [99.9, 3], [99.99, 4], [99.999, 5], [99.9999, 6]] as const) {
      expect(percentileX(p)).toBeCloseTo(x, 9);
    }
    expect(percentileX(50)).toBeCloseTo(Math.log10(2), 9);
    expect(percentileX(100)).toBeCloseTo(6, 6);
    expect(percentileX(-5)).toBe(0);
  });

  it('ticks each decade, labelled as percentiles, at least 0% and 90%, at most 99.9999%', () => {
    expect(percentileTicks(0).map((t) => t.label)).toEqual(['0%', '90%']);
    expect(percentileTicks(3.1).map((t) => t.label)).toEqual(['0%', '90%', '99%', '99.9%', '99.99%']);
    expect(percentileTicks(3).map((t) => t.x)).toEqual([0, 1, 2, 3]);
    expect(percentileTicks(50).at(-1)).toEqual({ x: 6, label: '99.9999%' });
  });

  it('linear ticks step 1, 2 or 5 × 10^k and cover the maximum; none to draw gives 0 to 1', () => {
    expect(niceTicks(237)).toEqual([0, 50, 100, 150, 200, 250]);
    expect(niceTicks(10, 6)).toEqual([0, 2, 4, 6, 8, 10]);
    expect(niceTicks(0.0042)).toEqual([0, 0.001, 0.002, 0.003, 0.004, 0.005]);
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(Number.NaN)).toEqual([0, 1]);
  });
});

describe('the distribution of a histogram (distributionOf)', () => {
  it('is empty for no answer, one point for one answer', () => {
    expect(distributionOf(newHistogram())).toEqual([]);
    const one = newHistogram();
    recordMs(one, 12.5);
    const d = distributionOf(one);
    expect(d).toHaveLength(1);
    expect(d[0]![0]).toBe(0);
    expect(d[0]![1]).toBeCloseTo(12.5, 1); // HdrHistogram: within 0.1% (3 significant digits)
  });

  it('rises from 0% to 1 - 1/count, ending at the largest latency', () => {
    const h = newHistogram();
    for (let i = 1; i <= 1000; i += 1) recordMs(h, i);
    const d = distributionOf(h);
    expect(d[0]![0]).toBe(0);
    expect(d[0]![1]).toBeCloseTo(1, 2);
    expect(d.at(-1)![0]).toBe(99.9);
    expect(Math.abs(d.at(-1)![1] - 1000)).toBeLessThan(1);
    for (let i = 1; i < d.length; i += 1) {
      expect(d[i]![0]).toBeGreaterThan(d[i - 1]![0]);
      expect(d[i]![1]).toBeGreaterThanOrEqual(d[i - 1]![1]);
    }
    const at90 = d.find(([p]) => p === 90)!;
    expect(at90[1]).toBeCloseTo(900, -1);
  });

  it('a huge run stays at most 6 decades × 20 + 2 points, up to 99.9999%', () => {
    const h = newHistogram();
    h.recordValueWithCount(1000, 10_000_000);
    h.recordValueWithCount(900_000, 100); // 1 in 10^5: above 99.999%, so 99.9999% is 900 ms
    const d = distributionOf(h);
    expect(d.length).toBeLessThanOrEqual(122);
    expect(d.at(-1)![0]).toBe(99.9999);
    expect(d.at(-1)![1]).toBeCloseTo(900, -1);
  });
});

describe('the timeline (answers and errors per operation over the window)', () => {
  it('buckets of 1 s, wider past 600 s so a run of hours keeps at most 600', () => {
    expect(bucketSeconds(10)).toBe(1);
    expect(bucketSeconds(600)).toBe(1);
    expect(bucketSeconds(601)).toBe(2);
    expect(bucketSeconds(8 * 3600)).toBe(48);
    const t = new TimelineTally(8 * 3600);
    t.add('read', 0, true, false);
    t.add('read', 8 * 3600 * 1000 - 1, true, true);
    t.add('read', 10 * 3600 * 1000, false, true); // beyond the window (a late answer): the last bucket
    const s = t.snapshot();
    expect(s.bucket_s).toBe(48);
    expect(s.by_operation.read!.answers.length).toBe(MAX_TIMELINE_BUCKETS);
    expect(s.by_operation.read!.answers.reduce((a, b) => a + b)).toBe(2);
    expect(s.by_operation.read!.errors.at(-1)).toBe(2);
  });

  it('merges parts bucket by bucket; a part without one, or of another width, or malformed, gives none', () => {
    const a = new TimelineTally(10);
    const b = new TimelineTally(10);
    a.add('create', 500, true, false);
    b.add('create', 2500, true, true);
    b.notAnError('create', 2500);
    expect(mergeTimelines([a.snapshot(), b.snapshot()])).toEqual({
      bucket_s: 1, by_operation: { create: { answers: [1, 0, 1], errors: [0, 0, 0] } },
    });
    expect(mergeTimelines([a.snapshot(), undefined])).toBeUndefined();
    expect(mergeTimelines([a.snapshot(), new TimelineTally(1200).snapshot()])).toBeUndefined();
    const bad = { bucket_s: 1, by_operation: { create: { answers: ['1'], errors: [0] } } };
    expect(mergeTimelines([bad as never])).toBeUndefined();
    expect(mergeTimelines([{ bucket_s: 1, by_operation: { evil: { answers: [], errors: [] } } } as never])).toBeUndefined();
  });

  it('rates: count per second of each bucket, the last one as long as the time measured', () => {
    expect(ratePoints([10, 5], 1, 1.5)).toEqual([[0.5, 10], [1.25, 10]]);
    expect(ratePoints([], 1, 10)).toEqual([]);
    expect(ratePoints(['x', null, -3, Number.NaN], 1, 4).map(([, y]) => y)).toEqual([0, 0, 0, 0]);
  });

  it('a huge series is summed into at most MAX_POINTS points, the total kept', () => {
    const counts = Array.from({ length: 1_000_000 }, () => 3);
    const pts = ratePoints(counts, 1, counts.length);
    expect(pts.length).toBeLessThanOrEqual(MAX_POINTS);
    const width = Math.ceil(counts.length / MAX_POINTS);
    expect(pts.every(([, y]) => y === 3)).toBe(true);
    expect(pts[1]![0] - pts[0]![0]).toBe(width);
    expect(thin(Array.from({ length: 10_000 }, (_, i) => i)).length).toBeLessThanOrEqual(MAX_POINTS);
    expect(thin(Array.from({ length: 10_000 }, (_, i) => i)).at(-1)).toBe(9999);
  });

  it('figures of a synthetic run: the timeline adds up to the responses and the errors', () => {
    const f = buildFigures([syntheticParts({ seconds: 5, rps: 100 })], 100, 5);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const ops = Object.values(f.timeline!.by_operation);
    expect(sum(ops.map((c) => sum(c.answers)))).toBe(f.responses);
    expect(sum(ops.map((c) => sum(c.errors)))).toBe(f.errors.total);
    expect(Object.keys(f.distribution!).sort()).toEqual(['all', 'create', 'list', 'read']);
    // Two parts (workers, shards) add bucket by bucket, as load merge does; figures.raw does not carry it twice.
    const p = syntheticParts({ seconds: 5, rps: 100 });
    const two = buildFigures([p, p], 200, 5);
    expect(sum(Object.values(two.timeline!.by_operation).map((c) => sum(c.answers)))).toBe(2 * f.responses);
    expect('timeline' in two.raw).toBe(false);
  });
});

const plots = (page: string) => page.match(/<svg[^>]*class="plot"/g) ?? [];

describe('load.html plots', () => {
  it('a run: latency over time, by percentile, throughput and errors, each with title and desc, no NaN', () => {
    const page = renderLoadHtml(syntheticReport('r1', { seconds: 5, rps: 100 }));
    expect(plots(page)).toHaveLength(4);
    expect(page.match(/<title id="[^"]+-title">/g)).toHaveLength(4);
    expect(page).toContain('<desc id="load-distribution-desc">');
    expect(page).toContain('>99.9%</text>');
    expect(page).toContain('percentile (log scale of 1/(1-p))');
    expect(page).toContain('answers per second');
    expect(page).not.toMatch(/NaN|Infinity|undefined/);
  });

  it('a run of one interval: one point each, drawn as a dot', () => {
    const page = renderLoadHtml(syntheticReport('r1', { seconds: 1, rps: 1 }));
    expect(plots(page).length).toBeGreaterThanOrEqual(3);
    expect(page).toMatch(/<circle [^>]*><title>p50<\/title>/);
    expect(page).toMatch(/<circle [^>]*><title>create<\/title>/);
    expect(page).not.toMatch(/NaN|Infinity/);
  });

  it('a run with no answer: says so, draws no line', () => {
    const r = syntheticReport('r0', { seconds: 3, rps: 0 });
    expect(r.figures!.responses).toBe(0);
    const page = renderLoadHtml(r);
    expect(page).toContain('No per-second series (no response in the window).');
    expect(page).toContain('No answer in the window: no latency to plot.');
    expect(page).not.toMatch(/NaN|Infinity|<polyline/);
  });

  it('an older load.json (no timeline, no distribution) says they are not in it', () => {
    const r = syntheticReport('old', { seconds: 2, rps: 10 });
    delete r.figures!.timeline;
    delete r.figures!.distribution;
    const page = renderLoadHtml(r);
    expect(page.match(/Not in this load.json/g)).toHaveLength(2);
  });

  it('a hostile load.json: wrong shapes and numbers are left out, the page stays bounded and escaped', () => {
    const r = syntheticReport('<script>x</script>', { seconds: 2, rps: 10 }) as LoadReportModel;
    const evil = '"><script>alert(1)</script>';
    const f = r.figures as unknown as Record<string, unknown>;
    f.series = [{ p50: evil, p99: Number.NaN }, null, 'x'];
    f.distribution = { create: [[evil, 1], [50, -1], [101, 3], [50, 2]], read: 'x', list: Array.from({ length: 200_000 }, (_, i) => [i % 100, i]) };
    f.timeline = { bucket_s: 1, by_operation: { read: { answers: Array(2_000_000).fill(7), errors: [evil, 1e308, -1] }, [evil]: 1 } };
    const page = renderLoadHtml(r);
    expect(page).not.toMatch(/<script>|NaN|Infinity/);
    expect(page.length).toBeLessThan(400_000);
    for (const pts of page.match(/points="[^"]*"/g) ?? []) expect(pts.split(' ').length).toBeLessThanOrEqual(MAX_POINTS);
  });

  it('a chart escapes its labels and colours', () => {
    const c = lineChart({
      id: 'x"y', title: '<t>', desc: '<d>', xLabel: '<x>', yLabel: '<y>', xTicks: [{ x: 0, label: '<0>' }, { x: 1, label: '1' }],
      lines: [{ label: '<img src=x onerror=alert(1)>', colour: '"><script>', points: [[0, 1], [1, 2]] }],
    }).text;
    expect(c).not.toMatch(/<script>|<img|<t>|<d>/);
  });
});

describe('a histogram read back (decodeUntrusted)', () => {
  const h = newHistogram();
  recordMs(h, 3);

  it('takes what this tool writes', () => {
    expect(decodeUntrusted(encode(h)).totalCount).toBe(1);
  });

  it('refuses anything else with a reason: not a string, not base64, another kind, a body that inflates too far', () => {
    expect(() => decodeUntrusted(42)).toThrow(/not an encoded histogram/);
    expect(() => decodeUntrusted('x'.repeat(2 * 1024 * 1024))).toThrow(/not an encoded histogram/);
    expect(() => decodeUntrusted('bm90IGEgaGlzdG9ncmFt')).toThrow(/not a compressed V2 HdrHistogram/);
    const other = hdr.build({ numberOfSignificantValueDigits: 5, highestTrackableValue: 2 ** 40, useWebAssembly: false });
    other.recordValue(5);
    expect(() => decodeUntrusted(hdr.encodeIntoCompressedBase64(other))).toThrow(/not a histogram this tool writes/);
    const bomb = deflateSync(Buffer.alloc(64 * 1024 * 1024));
    const head = Buffer.alloc(8);
    head.writeInt32BE(0x1c849314, 0);
    head.writeInt32BE(bomb.length, 4);
    expect(() => decodeUntrusted(Buffer.concat([head, bomb]).toString('base64'))).toThrow(/does not inflate within/);
  });
});
