/**
 * How much of a retry gap measured short between arrivals an earlier attempt's own latency explains.
 *
 * The sink sees arrivals, not sends, and the spec leaves open whether a gap counts from the start or
 * the end of the failed attempt. A sender that counts from the start puts its next attempt's start
 * `gap` after this one's start; between arrivals that is `gap + latency(next) − latency(this)`. An
 * attempt that took long to arrive (its sender stalled between starting it and its bytes reaching
 * the sink; seen on a starved 2-CPU machine: 1.3 s) is followed by a gap measured short by as much.
 *
 * That latency is not seen, but it is bounded: a sender on time started this attempt no earlier than
 * an earlier attempt's start plus the gaps between them, so this attempt's latency is at most how
 * late it arrived against the schedule counted from that earlier arrival (plus that attempt's own
 * latency, the caller's slack). A sender that is early is never late against any earlier arrival:
 * a schedule read a step behind still falls short by a whole step.
 */

/**
 * How late attempt `i` (0-based) arrived against the schedule counted from any earlier arrival, ms,
 * at least 0. `gapsMs[j]` is the scaled gap between attempts j and j + 1 (0-based).
 */
export function arrivalLatenessMs(arrivalsMs: readonly number[], gapsMs: readonly number[], i: number): number {
  let late = 0;
  let scheduled = 0;
  for (let k = i - 1; k >= 0; k--) {
    scheduled += gapsMs[k] ?? 0;
    late = Math.max(late, arrivalsMs[i]! - arrivalsMs[k]! - scheduled);
  }
  return Math.round(late);
}
