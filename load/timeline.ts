/**
 * Answers and errors per operation over the measured window (load.json `figures.timeline`, the
 * throughput and errors plots of load.html): counted in each generator under the bucket of the
 * request's due time (as the per-second series), so a stall shows where the requests fell due.
 * Buckets are 1 s, wider for a long window, so a run of any length keeps at most
 * MAX_TIMELINE_BUCKETS per operation; workers' and shards' timelines add bucket by bucket.
 */
import type { TimelineModel } from '../catalogue/report/load-model.ts';
import { OPS, type Op } from './scenarios.ts';

export const MAX_TIMELINE_BUCKETS = 600;

/** The bucket width (s) for a window of `windowS` seconds: 1, or the least whole number keeping the buckets within the cap. */
export function bucketSeconds(windowS: number): number {
  return Math.max(1, Math.ceil(windowS / MAX_TIMELINE_BUCKETS));
}

type Counts = { answers: number[]; errors: number[] };

/** One generator's timeline, while it runs. */
export class TimelineTally {
  readonly bucketS: number;
  private readonly ops: Partial<Record<Op, Counts>> = {};

  constructor(windowS: number) {
    this.bucketS = bucketSeconds(windowS);
  }

  private counts(op: Op, sinceStartMs: number): { c: Counts; i: number } {
    const i = Math.min(MAX_TIMELINE_BUCKETS - 1, Math.max(0, Math.floor(sinceStartMs / 1000 / this.bucketS)));
    const c = (this.ops[op] ??= { answers: [], errors: [] });
    while (c.answers.length <= i) {
      c.answers.push(0);
      c.errors.push(0);
    }
    return { c, i };
  }

  /** A request of `op` that fell due `sinceStartMs` after the window's start: answered or not, counted an error or not. */
  add(op: Op, sinceStartMs: number, answered: boolean, error: boolean): void {
    const { c, i } = this.counts(op, sinceStartMs);
    if (answered) c.answers[i]! += 1;
    if (error) c.errors[i]! += 1;
  }

  /** An answer counted as an error that is none (the storm's expected 409 idempotency_in_progress). */
  notAnError(op: Op, sinceStartMs: number): void {
    const { c, i } = this.counts(op, sinceStartMs);
    if (c.errors[i]! > 0) c.errors[i]! -= 1;
  }

  snapshot(): TimelineModel {
    return { bucket_s: this.bucketS, by_operation: structuredClone(this.ops) };
  }
}

const count = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** A timeline as load.json may hold it (read back: untrusted): whole bucket width, bounded arrays of counts of equal length. */
function valid(t: TimelineModel | undefined): t is TimelineModel {
  if (!t || typeof t !== 'object' || !Number.isInteger(t.bucket_s) || t.bucket_s < 1 || !t.by_operation) return false;
  return Object.entries(t.by_operation).every(([op, c]) => (OPS as readonly string[]).includes(op) && !!c &&
    Array.isArray(c.answers) && Array.isArray(c.errors) && c.answers.length === c.errors.length &&
    c.answers.length <= MAX_TIMELINE_BUCKETS && c.answers.every(count) && c.errors.every(count));
}

/**
 * The parts' timelines added bucket by bucket; undefined when a part has none (a load.json from
 * before it was recorded) or the widths differ: a timeline is of the whole run or absent, never of a part.
 */
export function mergeTimelines(parts: readonly (TimelineModel | undefined)[]): TimelineModel | undefined {
  if (parts.length === 0 || !parts.every(valid)) return undefined;
  const bucketS = parts[0]!.bucket_s;
  if (parts.some((p) => p!.bucket_s !== bucketS)) return undefined;
  const out: TimelineModel = { bucket_s: bucketS, by_operation: {} };
  for (const op of OPS) {
    const each = parts.map((p) => p!.by_operation[op]).filter((c): c is Counts => !!c);
    if (!each.length) continue;
    const n = Math.max(...each.map((c) => c.answers.length));
    const sum = (k: keyof Counts) => Array.from({ length: n }, (_, i) => each.reduce((a, c) => a + (c[k][i] ?? 0), 0));
    out.by_operation[op] = { answers: sum('answers'), errors: sum('errors') };
  }
  return out;
}
