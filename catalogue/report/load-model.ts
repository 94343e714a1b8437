/**
 * load.json as the renderers read it (results/render/load-*.ts): plain data, the fields a page, a table or
 * a testcase shows. The load side's own type (load/report.ts `LoadReport`) extends it, so what
 * `load` writes always fits; a load.json read back from a directory is untrusted input and every
 * value of it is escaped where it is rendered.
 */

/** The operations of a load run, in the order every table lists them. */
export const LOAD_OPS = ['create', 'read', 'list'] as const;
export type LoadOp = (typeof LOAD_OPS)[number];

/** Latency percentiles of one operation or of all (ms). */
export interface Percentiles {
  count: number;
  min: number;
  mean: number;
  p50: number;
  p90: number;
  p97_5: number;
  p99: number;
  p99_9: number;
  p99_99: number;
  max: number;
}

/** The percentiles a table shows, and their column labels. */
export const PERCENTILE_KEYS = ['p50', 'p90', 'p97_5', 'p99', 'p99_9', 'p99_99', 'max'] as const;
export const PERCENTILE_LABELS = ['p50', 'p90', 'p97.5', 'p99', 'p99.9', 'p99.99', 'max'] as const;

export interface LoadFiguresModel {
  model: 'open' | 'closed';
  offered_rps: number | null;
  achieved_rps: number;
  window_s: number;
  measured_s?: number;
  stopped_by?: 'duration' | 'max-requests' | 'signal';
  due: number;
  sent: number;
  not_sent: number;
  failed?: number;
  shortfall: number;
  responses: number;
  rate_limited?: {
    count: number;
    share_of_responses: number;
    with_retry_after: number;
    retry_after_s: { min: number; max: number } | null;
    honoured: boolean;
    waits: number;
    waited_s: number;
  };
  accepted_rps?: number;
  latency_ms: { overall: Percentiles; by_operation: Partial<Record<LoadOp, Percentiles & { rps: number; statuses: Record<string, number> }>> };
  series: readonly { second: number; p50: number; p99: number }[];
  status_codes: Record<string, number>;
  errors: {
    by_kind: { timeout: number; connection: number; other: number };
    expected_409_in_progress?: number;
    by_status: Record<string, number>;
    rate_limited_429: number;
    by_code?: Record<string, number>;
    rate: number;
  };
}

/** A check or a threshold: its verdict and one line of detail (a check may add examples). */
export interface LoadVerdictModel {
  id: string;
  status: string;
  detail: string;
  examples?: string[];
}

export interface LoadReportModel {
  kind: 'load';
  run_id: string;
  target: { base_url: string; embedded: boolean };
  started_at: string;
  options: {
    scenario: string;
    mix: Record<LoadOp, number>;
    model: 'open' | 'closed';
    arrivals: string | null;
    rate: number | null;
    warmup_s: number;
    duration_s: number;
    connections: number;
    workers: number;
    shard: { index: number; count: number } | null;
    max_requests: number;
    timeout_s: number;
  };
  merged_from?: readonly unknown[];
  figures: LoadFiguresModel | null;
  checks: LoadVerdictModel[];
  thresholds: LoadVerdictModel[];
  notes: string[];
  verdict: 'pass' | 'fail' | 'incomplete';
  /** Interrupted (SIGINT/SIGTERM): the figures so far, and why. */
  partial?: boolean;
  partial_reason?: string;
  exit_code: 0 | 1 | 6;
}
