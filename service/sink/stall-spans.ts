/**
 * When the sink's event loop stood still, as spans of time, and how much of an interval they cover.
 * A Delivery carries the spans of the 15 s before its arrival (types.ts `stalls`, ms relative to
 * `receivedAt`), so a log judged later (`webhooks judge`) knows them too.
 */

/** [start, end], ms. */
export type Span = [number, number];

/**
 * At most `max` spans covering every input span: overlapping ones are joined, then, while there are
 * more than `max`, neighbours closer than a widening distance are joined (the gap between them
 * counts as stalled: never less stall than measured, so the judgement it feeds stays on the side
 * of no false alarm).
 */
export function coarsenSpans(spans: readonly Span[], max: number): Span[] {
  let out = joinWithin([...spans].sort((a, b) => a[0] - b[0]), 0);
  for (let gap = 1; out.length > max; gap *= 2) out = joinWithin(out, gap);
  return out;
}

function joinWithin(sorted: readonly Span[], gap: number): Span[] {
  const out: Span[] = [];
  for (const [s, e] of sorted) {
    const prev = out[out.length - 1];
    if (prev && s - prev[1] <= gap) prev[1] = Math.max(prev[1], e);
    else out.push([s, e]);
  }
  return out;
}

/** Epoch spans as whole ms relative to `at`, rounded outward (never less stall than measured). */
export function relativeSpans(spans: readonly Span[], at: number): Span[] {
  return spans.map(([s, e]) => [Math.floor(s - at), Math.ceil(e - at)]);
}

/** How many ms of [from, to] the spans cover (spans and bounds on one clock; spans disjoint). */
export function coveredMs(spans: readonly Span[], from: number, to: number): number {
  let sum = 0;
  for (const [s, e] of spans) sum += Math.max(0, Math.min(e, to) - Math.max(s, from));
  return Math.round(sum);
}

/** What a delivery carries: its arrival and, when the sink recorded them, its stalls relative to it. */
export interface StallRecord {
  receivedAt: number;
  stalls?: Span[];
  stallMs?: number;
}

/**
 * How long the sink's loop stood still between `fromEpoch` and the arrival of `d`, ms. A log
 * written before the spans were recorded has only the longest stall of the 15 s before the
 * arrival: that is taken whole (the older, wider judgement).
 */
export function stalledBeforeArrivalMs(d: StallRecord, fromEpoch: number): number {
  if (!Array.isArray(d.stalls)) return d.stallMs ?? 0;
  return coveredMs(d.stalls, fromEpoch - d.receivedAt, 0);
}
