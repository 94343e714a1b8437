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

/**
 * A retry late at the sink is not always late from its sender. Its signed `t` (whole seconds,
 * floored) is when it was signed for sending; its arrival minus that `t` is the clocks' offset, the
 * time on the way and up to 1 s of flooring. Against the fastest delivery of the run (the same
 * offset, the least time on the way), a delivery whose lead is longer by more than that 1 s spent at
 * least the excess between its signing and its arrival: on a starved machine a loopback delivery
 * was seen to take over 3 s there (a retry 3 652 ms after the attempt before it, which the sink had
 * answered in 1 ms, while the sender's own records had it start at most 455 ms late and neither
 * process's loop stalled that long). A sender that is itself late signs late: its `t` shows no excess.
 */

/** A delivery as this needs it: its arrival and its `t`, when the signature verified. */
export interface SignedArrival {
  receivedAt: number;
  signature?: { valid: boolean; t?: number } | null;
}

/** receivedAt − t · 1000 of a delivery whose signature verified, else undefined. */
export function signedLeadMs(d: SignedArrival): number | undefined {
  const t = d.signature?.valid ? d.signature.t : undefined;
  return t === undefined ? undefined : d.receivedAt - t * 1000;
}

/** The least lead of the deliveries that have one (the run's fastest way, its clocks' offset), else undefined. */
export function fastestLeadMs(deliveries: Iterable<SignedArrival>): number | undefined {
  let least: number | undefined;
  for (const d of deliveries) {
    const lead = signedLeadMs(d);
    if (lead !== undefined && (least === undefined || lead < least)) least = lead;
  }
  return least;
}

/** At least how much longer than the run's fastest delivery `d` spent between its signing and its arrival, ms (0 when unknown). */
export function slowWayMs(d: SignedArrival, fastestLead: number | undefined): number {
  const lead = signedLeadMs(d);
  if (lead === undefined || fastestLead === undefined) return 0;
  return Math.max(0, Math.round(lead - fastestLead - 1000));
}
