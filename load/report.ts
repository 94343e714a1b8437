/**
 * load.json: the machine-readable result of a load run (load.md and the stdout table are
 * rendered from it alone). Written through redactText: no secret reaches a file.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { redactText } from '../harness/redact.ts';
import type { CleanupOutcome } from './after.ts';
import type { Check } from './checks.ts';
import { renderMarkdown } from './render.ts';
import { OPS, type Op, type ScenarioName } from './scenarios.ts';
import { round, statusCounts, summarise, type LatencySummary, type Tallies } from './stats.ts';
import type { ThresholdResult } from './thresholds.ts';

export interface OperationFigures extends LatencySummary {
  rps: number;
  statuses: Record<string, number>;
  /** Non-2xx answers by status and error code ("409 idempotency_conflict"). */
  error_codes: Record<string, number>;
}

export interface Figures {
  duration_s: number;
  responses: number;
  /** Per-second samples of completed responses (autocannon `requests`). */
  throughput_rps: { mean: number; p50: number; p99: number; min: number; max: number };
  /** Every response's time, exactly (ms); `overall` is what --max-p99-ms is checked against. */
  latency_ms: { overall: LatencySummary; by_operation: Partial<Record<Op, OperationFigures>> };
  /** autocannon's own histogram (whole ms), for comparison with autocannon's CLI. */
  autocannon_latency_ms: { p50: number; p90: number; p97_5: number; p99: number; max: number; mean: number };
  status_codes: Record<string, number>;
  errors: { non_2xx: number; timeouts: number; connection_errors: number; total: number; rate: number };
}

export interface LoadReport {
  tool: { name: string; version: string };
  kind: 'load';
  run_id: string;
  target: { base_url: string; embedded: boolean };
  started_at: string;
  finished_at: string;
  options: {
    scenario: ScenarioName;
    mix: Record<Op, number>;
    duration_s: number;
    connections: number;
    connections_effective: number;
    rate: number | null;
    max_requests: number;
    timeout_s: number;
  };
  figures: Figures | null;
  checks: Check[];
  thresholds: ThresholdResult[];
  cleanup: CleanupOutcome | null;
  notes: string[];
  verdict: 'pass' | 'fail';
  exit_code: 0 | 1;
}

export function buildFigures(raw: autocannon.Result, tallies: Tallies, errorCodes: Record<Op, Map<string, number>>): Figures {
  const all: number[] = [];
  const byOp: Partial<Record<Op, OperationFigures>> = {};
  const duration = raw.duration > 0 ? raw.duration : 1;
  for (const op of OPS) {
    const t = tallies[op];
    if (t.count === 0) continue;
    for (const v of t.latencies) all.push(v);
    byOp[op] = { ...summarise(t.latencies), rps: round(t.count / duration, 1), statuses: statusCounts([t]), error_codes: Object.fromEntries(errorCodes[op]) };
  }
  const responses = Object.values(raw.statusCodeStats).reduce((a, s) => a + Number(s.count), 0);
  const connectionErrors = raw.errors - raw.timeouts;
  const errorsTotal = raw.non2xx + raw.errors;
  const attempts = responses + raw.errors;
  return {
    duration_s: raw.duration,
    responses,
    throughput_rps: {
      mean: round(raw.requests.mean, 1),
      p50: raw.requests.p50,
      p99: raw.requests.p99,
      min: raw.requests.min,
      max: raw.requests.max,
    },
    latency_ms: { overall: summarise(all), by_operation: byOp },
    autocannon_latency_ms: {
      p50: raw.latency.p50,
      p90: raw.latency.p90,
      p97_5: raw.latency.p97_5,
      p99: raw.latency.p99,
      max: raw.latency.max,
      mean: raw.latency.mean,
    },
    status_codes: statusCounts(OPS.map((op) => tallies[op])),
    errors: {
      non_2xx: raw.non2xx,
      timeouts: raw.timeouts,
      connection_errors: connectionErrors,
      total: errorsTotal,
      rate: attempts ? round(errorsTotal / attempts, 6) : 0,
    },
  };
}

/** Writes load.json and load.md, both redacted. */
export function writeReport(dir: string, report: LoadReport, secrets: readonly string[]): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'load.json'), redactText(JSON.stringify(report, null, 2), secrets) + '\n');
  writeFileSync(join(dir, 'load.md'), redactText(renderMarkdown(report), secrets));
}
