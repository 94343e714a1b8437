/**
 * How late this process's event loop runs callbacks, so an arrival time can say how far it may
 * be off. A timer ticks every TICK_MS; a tick that comes late by d ms means every callback of that
 * moment, a request handler included, ran d ms late. `recentLagMs()` is the largest lateness of
 * the last WINDOW_MS, and the lateness of the current moment (time since the last tick). An
 * arrival stamped while the loop was blocked is stamped late by at most that much; the webhook
 * rules widen their "too early" bound by it (a retry measured early because the previous
 * attempt's arrival was stamped late is the sink's error, not the target's). Unref'd: it never
 * keeps a process alive.
 *
 * `stallMs()` looks further back (STALL_WINDOW_MS): the longest stall of the loop over the last
 * 15 s. `stallSpans()` says when the longest of them were: a retry measured late is late because
 * this machine was too busy (the embedded reference shares the sink's process; on a starved
 * machine every process stalls) only by the stalls between when it was due and when it arrived
 * (stall-spans.ts). A stall before it was due delays no timer that was on time.
 */
import { longestSpans, type Span } from './stall-spans.ts';

const TICK_MS = 20;
const WINDOW_MS = 2_000;
const STALL_WINDOW_MS = 15_000;
/** At most this many spans are kept per arrival, the longest (stall-spans.ts). */
const MAX_STALL_SPANS = 32;

export interface LoopLagMonitor {
  recentLagMs(): number;
  /** The longest lateness of the last STALL_WINDOW_MS, the current moment's included. */
  stallMs(): number;
  /**
   * The longest stalls of the last STALL_WINDOW_MS, the current moment's included: epoch ms spans,
   * oldest first, and a length no stall left out exceeded.
   */
  stallSpans(): { spans: Span[]; floorMs: number };
  stop(): void;
}

/** Epoch ms with sub-ms precision, the clock of the sink's arrival stamps. */
const epochNow = () => performance.timeOrigin + performance.now();

export function startLoopLagMonitor(): LoopLagMonitor {
  const lags: Array<{ at: number; lag: number }> = [];
  let last = epochNow();
  const timer = setInterval(() => {
    const now = epochNow();
    const lag = Math.max(0, now - last - TICK_MS);
    last = now;
    if (lag > 1) lags.push({ at: now, lag });
    while (lags.length && lags[0]!.at < now - STALL_WINDOW_MS) lags.shift();
  }, TICK_MS);
  timer.unref();
  const within = (windowMs: number) => {
    const now = epochNow();
    let max = Math.max(0, now - last - TICK_MS);
    for (const l of lags) if (l.at >= now - windowMs && l.lag > max) max = l.lag;
    return Math.round(max);
  };
  const spans = () => {
    const now = epochNow();
    const out: Span[] = lags.filter((l) => l.at >= now - STALL_WINDOW_MS).map((l) => [l.at - l.lag, l.at]);
    const current = now - last - TICK_MS;
    if (current > 1) out.push([now - current, now]);
    return longestSpans(out, MAX_STALL_SPANS);
  };
  return {
    recentLagMs: () => within(WINDOW_MS),
    stallMs: () => within(STALL_WINDOW_MS),
    stallSpans: spans,
    stop: () => clearInterval(timer),
  };
}
