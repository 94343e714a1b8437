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

/** What a load run measured (load.json `figures`); the load side adds what only it reads (load/figures.ts). */
export interface LoadFiguresModel {
  model: 'open' | 'closed';
  /** Offered rate (open model), sum over shards; null in the closed model. */
  offered_rps: number | null;
  /** Requests sent during the measured window, per second of the time measured (measured_s). */
  achieved_rps: number;
  /** The nominal window (--duration). */
  window_s: number;
  /** The time actually measured: window_s, or up to the last answer when the request cap ended the run first. */
  measured_s?: number;
  /** What ended the measured window. */
  stopped_by?: 'duration' | 'max-requests' | 'signal';
  /** Requests due in the window (open model; closed: sent): due = sent + not_sent. */
  due: number;
  /** sent = responses + failed. */
  sent: number;
  not_sent: number;
  /** Sent requests that got no answer (time-outs, connection and protocol failures). */
  failed?: number;
  /** 1 − sent / due (≥ 0): how far the achieved rate fell short of the offered one. */
  shortfall: number;
  responses: number;
  /** 429 answers, apart: how many, their share of the answers, what Retry-After asked, the waits honoured. */
  rate_limited?: RateLimitedModel;
  /** Answers other than 429 per second of the time measured: the rate the target accepted. */
  accepted_rps?: number;
  latency_ms: { overall: Percentiles; by_operation: Partial<Record<LoadOp, OperationFiguresModel>> };
  /** Per second of the window (by due time in the open model): p50 and p99 (ms). */
  series: readonly { second: number; p50: number; p99: number }[];
  /** Answers and errors per operation over the window; absent in load.json written before it was recorded. */
  timeline?: TimelineModel;
  /** Latency by percentile per operation and overall, from the HdrHistograms; absent in older load.json. */
  distribution?: DistributionModel;
  status_codes: Record<string, number>;
  errors: {
    by_kind: { timeout: number; connection: number; other: number };
    /** idempotency-storm: 409 idempotency_in_progress answers, expected there (not counted as errors). */
    expected_409_in_progress?: number;
    /** Non-2xx answers other than 429, by status (including expected storm 409s). */
    by_status: Record<string, number>;
    rate_limited_429: number;
    /** Non-2xx answers by operation, status and error code ("create 409 idempotency_conflict"). */
    by_code?: Record<string, number>;
    rate: number;
  };
}

/**
 * Per operation, per bucket of `bucket_s` seconds of the window (by due time, as `series`; the last
 * bucket may be shorter): the answers (any status) and the errors (non-2xx answers but the storm's
 * expected 409s, and requests with no answer). Summed over the buckets: the operation's responses
 * and its share of `errors.total`. 1 s buckets, wider for a long window (at most 600 buckets).
 */
export interface TimelineModel {
  bucket_s: number;
  by_operation: Partial<Record<LoadOp, { answers: number[]; errors: number[] }>>;
}

/** Points [percentile (%), latency (ms)] in rising percentile, 0% first, up to the highest the count resolves (at most 99.9999%). */
export type DistributionModel = Partial<Record<LoadOp | 'all', [number, number][]>>;

/** One operation's latencies, its rate and the statuses it got. */
export interface OperationFiguresModel extends Percentiles {
  rps: number;
  statuses: Record<string, number>;
}

/** 429 answers of a load run. */
export interface RateLimitedModel {
  count: number;
  share_of_responses: number;
  /** How many carried an integer Retry-After, and the smallest and largest (s); null when none did. */
  with_retry_after: number;
  retry_after_s: { min: number; max: number } | null;
  /** Closed model with --honour-retry-after: waits made and their total (s). */
  honoured: boolean;
  waits: number;
  waited_s: number;
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
    /** Offered rate of this run (this shard's share with --shard); null in the closed model. */
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
