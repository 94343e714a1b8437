/**
 * Figures from the raw parts of one or many generators (worker threads, shards): histograms
 * are merged bucket by bucket (exact), counts add. The same function serves a run and
 * `load merge`, so a merged result is computed exactly like a single one.
 */
import type {
  DistributionModel, LoadFiguresModel, OperationFiguresModel, Percentiles, RateLimitedModel, TimelineModel,
} from '../catalogue/report/load-model.ts';
import { distributionOf, encode, mergeEncoded, percentilesOf, type Histogram } from './histogram.ts';
import { mergeTimelines } from './timeline.ts';
import type { ErrorKind, GeneratorResult } from './generator.ts';
import { OPS, type Op } from './scenarios.ts';
import { mergeThrottle, type ThrottleTally } from './throttle.ts';

/**
 * What load.json keeps of the generators' output so that runs merge (figures.raw): a
 * GeneratorResult without what only the run itself reads (observations, internal errors).
 */
export type RawParts = Omit<
  GeneratorResult,
  'obs' | 'internalErrors' | 'expectedInProgress' | 'measuredMs' | 'stoppedByCap' | 'throttle' | 'metrics' | 'timeline'
> & {
  /** idempotency-storm: 409 idempotency_in_progress answers, the expected ones (not errors); absent in older load.json. */
  expectedInProgress?: number;
  /** The time measured (ms); absent in older load.json (then the nominal window). */
  measuredMs?: number;
  stoppedByCap?: boolean;
  throttle?: ThrottleTally;
  /** Per operation over the window; absent in older load.json. Written as figures.timeline, not in figures.raw. */
  timeline?: TimelineModel;
};

/** The model's figures (catalogue/report/load-model.ts says what each is) and what only the load side reads. */
export interface Figures extends LoadFiguresModel {
  warmup_responses: number;
  latency_ms: { overall: Percentiles; by_operation: Partial<Record<Op, OperationFiguresModel>> };
  series: { second: number; count: number; p50: number; p99: number }[];
  errors: LoadFiguresModel['errors'] & { by_kind: Record<ErrorKind, number>; total: number };
  /** Merged raw parts (encoded HdrHistograms, µs): what `load merge` reads (with figures.timeline). */
  raw: Omit<RawParts, 'timeline'>;
}

function addInto(into: Record<string, number>, from: Record<string, number>): void {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
}

/** Sums the parts: histograms merged and re-encoded, counts added. */
export function mergeParts(parts: readonly RawParts[]): RawParts {
  const out: RawParts = {
    histograms: {},
    series: [],
    statuses: { create: {}, read: {}, list: {} },
    errorKinds: { timeout: 0, connection: 0, other: 0 },
    due: 0,
    sentInWindow: 0,
    answered: 0,
    notSent: 0,
    warmupAnswered: 0,
    expectedInProgress: 0,
  };
  for (const op of OPS) {
    const hs = parts.map((p) => p.histograms[op]).filter((h): h is string => !!h);
    if (hs.length) out.histograms[op] = encode(mergeEncoded(hs));
    for (const p of parts) addInto(out.statuses[op], p.statuses[op]);
  }
  const seconds = Math.max(0, ...parts.map((p) => p.series.length));
  for (let s = 0; s < seconds; s += 1) out.series.push(encode(mergeEncoded(
    parts.map((p) => p.series[s]).filter((h): h is string => !!h),
    2,
  )));
  for (const p of parts) {
    for (const k of Object.keys(out.errorKinds) as ErrorKind[]) out.errorKinds[k] += p.errorKinds[k];
    out.due += p.due;
    out.sentInWindow += p.sentInWindow;
    out.answered += p.answered;
    out.notSent += p.notSent;
    out.warmupAnswered += p.warmupAnswered;
    out.expectedInProgress! += p.expectedInProgress ?? 0;
  }
  // Parts run side by side (workers, shards): the time measured is the longest; older parts say nothing.
  if (parts.length && parts.every((p) => p.measuredMs !== undefined)) out.measuredMs = Math.max(...parts.map((p) => p.measuredMs!));
  out.stoppedByCap = parts.some((p) => p.stoppedByCap === true);
  if (parts.some((p) => p.stoppedBySignal === true)) out.stoppedBySignal = true;
  out.throttle = mergeThrottle(parts.map((p) => p.throttle));
  const timeline = mergeTimelines(parts.map((p) => p.timeline));
  if (timeline) out.timeline = timeline;
  return out;
}

const round = (v: number, d = 2): number => Math.round(v * 10 ** d) / 10 ** d;

/** The distribution of each operation's histogram and of all of them (histogram.ts distributionOf). */
function distributions(byOp: Partial<Record<Op, Histogram>>, all: Histogram): DistributionModel {
  const out: DistributionModel = {};
  for (const op of OPS) if (byOp[op]) out[op] = distributionOf(byOp[op]);
  if (all.totalCount) out.all = distributionOf(all);
  return out;
}

export function buildFigures(parts: readonly RawParts[], offeredRps: number | null, windowS: number, honoured = false): Figures {
  const { timeline, ...raw } = mergeParts(parts);
  const measuredS = raw.measuredMs === undefined ? windowS : round(Math.min(windowS, raw.measuredMs / 1000), 3);
  const per = (n: number): number => (measuredS > 0 ? round(n / measuredS, 1) : 0);
  const byOp: Partial<Record<Op, OperationFiguresModel>> = {};
  const hists: Partial<Record<Op, Histogram>> = {};
  const statusCodes: Record<string, number> = {};
  for (const op of OPS) {
    const enc = raw.histograms[op];
    if (!enc) continue;
    const p = percentilesOf((hists[op] = mergeEncoded([enc])));
    byOp[op] = { ...p, rps: per(p.count), statuses: raw.statuses[op] };
    addInto(statusCodes, raw.statuses[op]);
  }
  const all = mergeEncoded(Object.values(raw.histograms));
  const overall = percentilesOf(all);
  const distribution = distributions(hists, all);
  const series = raw.series.map((e, second) => {
    const p = percentilesOf(mergeEncoded([e], 2));
    return { second, count: p.count, p50: p.p50, p99: p.p99 };
  });
  const byStatus: Record<string, number> = {};
  let non2xx = 0;
  for (const [s, n] of Object.entries(statusCodes)) {
    if (s.startsWith('2')) continue;
    non2xx += n;
    if (s !== '429') byStatus[s] = n;
  }
  const expected = raw.expectedInProgress ?? 0;
  non2xx -= expected;
  const kinds = raw.errorKinds.timeout + raw.errorKinds.connection + raw.errorKinds.other;
  const attempts = raw.answered + kinds;
  const sent = raw.sentInWindow;
  const limited = statusCodes['429'] ?? 0;
  return {
    model: offeredRps ? 'open' : 'closed',
    offered_rps: offeredRps,
    achieved_rps: per(sent),
    window_s: windowS,
    measured_s: measuredS,
    stopped_by: raw.stoppedBySignal ? 'signal' : raw.stoppedByCap ? 'max-requests' : 'duration',
    due: raw.due,
    sent,
    not_sent: raw.notSent,
    failed: kinds,
    shortfall: raw.due ? Math.max(0, round(1 - sent / raw.due, 4)) : 0,
    responses: raw.answered,
    warmup_responses: raw.warmupAnswered,
    rate_limited: rateLimitedFigures(raw.throttle, limited, raw.answered, honoured),
    accepted_rps: per(raw.answered - limited),
    latency_ms: { overall, by_operation: byOp },
    series,
    ...(timeline ? { timeline } : {}),
    distribution,
    status_codes: statusCodes,
    errors: { by_kind: raw.errorKinds, by_status: byStatus, ...(expected ? { expected_409_in_progress: expected } : {}), rate_limited_429: statusCodes['429'] ?? 0, total: non2xx + kinds, rate: attempts ? round((non2xx + kinds) / attempts, 6) : 0 },
    raw,
  };
}

function rateLimitedFigures(t: ThrottleTally | undefined, count: number, responses: number, honoured: boolean): RateLimitedModel {
  const withRetryAfter = t?.withRetryAfter ?? 0;
  return {
    count,
    share_of_responses: responses ? round(count / responses, 6) : 0,
    with_retry_after: withRetryAfter,
    retry_after_s: withRetryAfter && t ? { min: t.retryAfterMinS, max: t.retryAfterMaxS } : null,
    honoured,
    waits: t?.waits ?? 0,
    waited_s: round((t?.waitedMs ?? 0) / 1000, 3),
  };
}
