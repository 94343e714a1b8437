/**
 * A load report made without a server, for the plots' tests: histograms, series and timeline
 * recorded from a fixed, seeded set of latencies (a slow tail, errors in one second), then
 * built into figures exactly as a run builds them (load/figures.ts buildFigures).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFigures, type RawParts } from '../../load/figures.ts';
import { encode, newHistogram, recordMs, type Histogram } from '../../load/histogram.ts';
import type { LoadReport } from '../../load/report.ts';
import { TimelineTally } from '../../load/timeline.ts';
import { seededRandom } from '../../load/arrivals.ts';
import type { Op } from '../../load/scenarios.ts';

/** `seconds` of `rps` answers per second, latencies scaled by `slow`; second 3 (if any) has errors. */
export function syntheticParts(o: { seconds: number; rps: number; slow?: number; seed?: number }): RawParts {
  const rnd = seededRandom(o.seed ?? 1);
  const hist: Partial<Record<Op, Histogram>> = {};
  const series: Histogram[] = [];
  const statuses: Record<Op, Record<string, number>> = { create: {}, read: {}, list: {} };
  const timeline = new TimelineTally(o.seconds);
  let answered = 0;
  for (let s = 0; s < o.seconds; s += 1) {
    if (o.rps) series.push(newHistogram(2));
    for (let i = 0; i < o.rps; i += 1) {
      const op: Op = i % 10 < 2 ? 'create' : i % 10 < 9 ? 'read' : 'list';
      const u = rnd();
      const ms = (o.slow ?? 1) * (u < 0.99 ? 1 + 4 * u : 50 + 400 * rnd());
      const status = s === 3 && i % 7 === 0 ? 503 : op === 'create' ? 201 : 200;
      recordMs((hist[op] ??= newHistogram()), ms);
      recordMs(series[s]!, ms);
      statuses[op][status] = (statuses[op][status] ?? 0) + 1;
      timeline.add(op, s * 1000 + (i * 1000) / o.rps, true, status >= 300);
      answered += 1;
    }
  }
  return {
    histograms: Object.fromEntries(Object.entries(hist).map(([op, h]) => [op, encode(h)])),
    series: series.map((h) => encode(h)),
    statuses,
    errorKinds: { timeout: 0, connection: 0, other: 0 },
    due: answered,
    sentInWindow: answered,
    answered,
    notSent: 0,
    warmupAnswered: 0,
    measuredMs: o.seconds * 1000,
    timeline: timeline.snapshot(),
  };
}

export function syntheticReport(runId: string, o: { seconds: number; rps: number; slow?: number; seed?: number }): LoadReport {
  const figures = buildFigures([syntheticParts(o)], o.rps, o.seconds);
  return {
    kind: 'load',
    tool: { name: 'hps-conformance', version: '0.1.0' },
    run_id: runId,
    target: { base_url: 'http://127.0.0.1:4010', embedded: true },
    started_at: '2026-11-21T00:00:00.000Z',
    finished_at: '2026-11-21T00:00:10.000Z',
    options: {
      scenario: 'mixed', mix: { create: 0.2, read: 0.7, list: 0.1 }, model: 'open', arrivals: 'constant', rate: o.rps, warmup_s: 0,
      duration_s: o.seconds, connections: 10, workers: 1, shard: null, max_requests: 1_000_000, timeout_s: 10,
      thresholds: { maxP99Ms: 250, minRps: 0, maxErrorRate: 0.01, allowShort: false, expressions: [] },
    },
    figures,
    checks: [],
    thresholds: [],
    cleanup: null,
    notes: [],
    verdict: 'pass',
    exit_code: 0,
  };
}

/** Writes `report` as DIR/load.json (as `load --report DIR` would) and returns DIR. */
export function writeLoadDir(dir: string, report: unknown): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'load.json'), typeof report === 'string' ? report : JSON.stringify(report, null, 2));
  return dir;
}
