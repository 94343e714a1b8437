/**
 * When the sink's event loop stood still, and how late that can make a delivery from a sender that
 * shares its process (the embedded reference) and was on time.
 *
 * Such a sender is late by the stall its due moment fell in, then by each stall its delivery met on
 * the way: its timer, its write, the sink's accept and read each wait for the loop once (a few
 * turns, TURNS). A starved machine stalls the loop briefly and often (seen: every tick 60-100 ms
 * late behind 24 busy processes, the loop still 95 % of the time); the time all those stalls add up to
 * says nothing about one delivery, which waits for a handful of them. A long block (a GC pause, a
 * synchronous burst of another session) delays it by the block. So what explains a late arrival is
 * the TURNS longest stalls between when it was due and when it arrived.
 *
 * A Delivery carries the longest stalls of the 15 s before its arrival (types.ts `stalls`, ms
 * relative to `receivedAt`) and `stallFloorMs`, a length no stall it left out exceeded, so a log
 * judged later knows them too.
 */

/** [start, end], ms. */
export type Span = [number, number];

/** Loop turns a delivery waits for between its sender's timer and the sink's arrival stamp. */
export const TURNS = 4;

/** The `max` longest spans, by start, and a length no span left out exceeds (0 when none was). */
export function longestSpans(spans: readonly Span[], max: number): { spans: Span[]; floorMs: number } {
  if (spans.length <= max) return { spans: [...spans].sort((a, b) => a[0] - b[0]), floorMs: 0 };
  const byLength = [...spans].sort((a, b) => b[1] - b[0] - (a[1] - a[0]));
  const kept = byLength.slice(0, max);
  const left = byLength[max]!;
  return { spans: kept.sort((a, b) => a[0] - b[0]), floorMs: Math.ceil(left[1] - left[0]) };
}

/** Epoch spans as whole ms relative to `at`, rounded outward (never less stall than measured). */
export function relativeSpans(spans: readonly Span[], at: number): Span[] {
  return spans.map(([s, e]) => [Math.floor(s - at), Math.ceil(e - at)]);
}

/** What a delivery carries: its arrival and, when the sink recorded them, its stalls relative to it. */
export interface StallRecord {
  receivedAt: number;
  stalls?: Span[];
  stallFloorMs?: number;
  stallMs?: number;
}

/**
 * How late the sink's stalls can have made this arrival from a sender in its process that was due at
 * `dueEpoch`, ms: the TURNS longest stalls between then and the arrival, a stall the record left out
 * counted at its floor, at most the time between. A log written before the spans were recorded has
 * only the longest stall of the 15 s before the arrival: that is taken once (the older judgement).
 */
export function stallDelayMs(d: StallRecord, dueEpoch: number): number {
  if (!Array.isArray(d.stalls)) return d.stallMs ?? 0;
  const from = dueEpoch - d.receivedAt;
  if (from >= 0) return 0;
  // A span that is not two finite numbers (a damaged log) counts as covering the whole stretch: never less stall than recorded.
  const overlaps = d.stalls.slice(0, 64).map((x) => (Array.isArray(x) && Number.isFinite(x[0]) && Number.isFinite(x[1])
    ? Math.max(0, Math.min(x[1], 0) - Math.max(x[0], from))
    : -from)).filter((x) => x > 0);
  const floor = Math.min(d.stallFloorMs ?? 0, -from);
  const candidates = [...overlaps, ...Array.from({ length: floor > 0 ? TURNS : 0 }, () => floor)].sort((a, b) => b - a);
  const sum = candidates.slice(0, TURNS).reduce((n, x) => n + x, 0);
  return Math.round(Math.min(sum, -from));
}
