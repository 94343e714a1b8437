/**
 * Latency summaries (test/perf/bench-client.ts): per-response times
 * (ms, sub-millisecond precision), kept exactly (a run is capped in requests) and summarised
 * with nearest-rank percentiles.
 */

export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p97_5: number;
  p99: number;
  max: number;
  min: number;
  mean: number;
}

/** Nearest-rank percentile of sorted values (p in 0..100). */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

export function summarise(values: readonly number[]): LatencySummary {
  const sorted = Float64Array.from(values).sort();
  const n = sorted.length;
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    count: n,
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p97_5: round(percentile(sorted, 97.5)),
    p99: round(percentile(sorted, 99)),
    max: round(n ? sorted[n - 1]! : 0),
    min: round(n ? sorted[0]! : 0),
    mean: round(n ? sum / n : 0),
  };
}

export function round(v: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

