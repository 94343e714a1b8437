/**
 * Every attempt signed for itself (spec, Delivery request: `Service-Signature: t=<unix_time>,…`;
 * Signature 2: the receiver rejects a `t` older than 5 minutes). The `t` of an attempt is the time
 * that attempt was sent, so between two attempts of one event at one endpoint the `t` values move
 * by the time between their arrivals. A retry that re-sends an earlier attempt's header keeps the
 * old `t`: at the spec's later steps (10 min, 2 h, 6 h) every receiver that follows Signature 2
 * refuses it, and at-least-once delivery is lost in practice.
 *
 * What the arrivals can show (docs/rulings.md, "Every attempt signed for itself"): `t` is whole
 * seconds, floored, and an arrival is the sending time plus the delivery's latency, stamped on the
 * sink's event loop (late by up to its recorded lag). Two attempts are compared only when their
 * arrivals are at least MIN_APART_MS apart; their `t` gap may then fall short of the arrival gap by at
 * most TOLERANCE_MS (1 s of flooring, the rest latency jitter) plus the sink's own recorded lag, plus,
 * where the caller gives the retry schedule, as much as the later attempt arrived late against it. A
 * `t` gap longer than the arrival gap is an earlier attempt that reached the sink late after it was
 * signed (a sender stalled between signing and sending, seen behind a starved rate-limiting front
 * end: 14 s of `t` over 10.9 s of arrivals), never a re-sent header: not judged here. A
 * constant offset between the target's clock and the sink's (skew) cancels out: the absolute age is
 * HOOK-TIMESTAMP-FRESH's, against the spec's 5 minutes.
 */

/** One attempt as the sink saw it. */
export interface SignedAttempt {
  seq: number;
  /** Arrival at the sink, epoch ms. */
  receivedAt: number;
  /** The header's `t` (unix seconds), when it parsed. */
  t: number | undefined;
  /** How late the sink's clock may have stamped this arrival (its loop lag or stall), ms. */
  stampNoiseMs?: number;
  /**
   * Where the retry schedule puts this attempt, ms after the first attempt (the scaled gaps before it),
   * when the attempts are one event's retries at one endpoint in order. With it, a `t` that fell behind
   * its arrival is not judged as far as the schedule shows the attempt itself arrived late (below).
   */
  offsetMs?: number;
  /** When the sink saw the previous attempt end (a held attempt closed by the sender), epoch ms: a retry is sent after it. */
  notBeforeMs?: number;
}

/** Arrivals closer than this are not compared: `t` is whole seconds and latency varies. */
export const MIN_APART_MS = 3_000;
/** How far the `t` gap may fall short of the arrival gap: 1 s of flooring and 1 s of latency jitter. */
export const TOLERANCE_MS = 2_000;

export interface AttemptSigningFinding {
  /** Pairs of attempts compared (arrivals at least MIN_APART_MS apart, both with a `t`, further apart than the slack). */
  compared: number;
  /** One line per attempt whose `t` did not move with it: the first pair that shows it. */
  problems: string[];
}

/**
 * Compares every pair of attempts of one event at one endpoint far enough apart; `label` names the
 * (event, endpoint) in the lines. An attempt is named once, by the earliest attempt it strays from.
 */
export function judgeAttemptSigning(label: string, attempts: readonly SignedAttempt[]): AttemptSigningFinding {
  const sorted = [...attempts].sort((a, b) => a.receivedAt - b.receivedAt || a.seq - b.seq);
  let compared = 0;
  const problems: string[] = [];
  for (let j = 1; j < sorted.length; j++) {
    const b = sorted[j]!;
    for (let i = 0; i < j; i++) {
      const a = sorted[i]!;
      const apartMs = b.receivedAt - a.receivedAt;
      if (a.t === undefined || b.t === undefined || apartMs < MIN_APART_MS) continue;
      const movedMs = (b.t - a.t) * 1000;
      const slackMs = TOLERANCE_MS + (a.stampNoiseMs ?? 0) + (b.stampNoiseMs ?? 0) + ownLatencyMs(a, b, apartMs);
      // A pair whose slack covers the whole time between its arrivals could not show even a re-sent header: not counted.
      if (apartMs <= slackMs) continue;
      compared++;
      // One-sided: a re-sent or stale header makes t move less than the arrivals did. t moving more means the earlier
      // attempt reached the sink late after it was signed (a busy sender, a slow network): not a re-sent signature.
      if (apartMs - movedMs <= slackMs) continue;
      problems.push(strayLine(label, a, b, apartMs, movedMs));
      break;
    }
  }
  return { compared, problems };
}

/**
 * How much longer b may have taken than a from its signing to its arrival, by what the schedule shows:
 * a retry is signed no earlier than the schedule puts it after a (its offset), nor before the previous
 * attempt ended, so b's latency beyond a's is at most how late it arrived against those. A busy sender
 * or receiver machine delays an attempt after it was signed (seen: a retry arriving 12.6 s after an
 * earlier attempt with a `t` 9 s after its, the attempt itself 4.4 s late). A re-sent header still
 * falls behind by the whole scheduled distance between the two attempts.
 */
function ownLatencyMs(a: SignedAttempt, b: SignedAttempt, apartMs: number): number {
  if (a.offsetMs === undefined || b.offsetMs === undefined) return 0;
  let bound = Math.max(0, apartMs - (b.offsetMs - a.offsetMs));
  if (b.notBeforeMs !== undefined) bound = Math.min(bound, Math.max(0, b.receivedAt - b.notBeforeMs));
  return bound;
}

function strayLine(label: string, a: SignedAttempt, b: SignedAttempt, apartMs: number, movedMs: number): string {
  const apart = `${(apartMs / 1000).toFixed(1)} s after #${a.seq}`;
  const moved = movedMs > 0 ? `a t ${movedMs / 1000} s after #${a.seq}'s` : `a t ${-movedMs / 1000} s before #${a.seq}'s`;
  const same = movedMs === 0 ? `the same t (${b.t}) as #${a.seq}: the earlier attempt's signature re-sent` : moved;
  const why = `each attempt is signed when it is sent; tolerance ${TOLERANCE_MS / 1000} s`;
  return `${label}: #${b.seq} arrived ${apart} but carries ${same} (${why})`;
}
