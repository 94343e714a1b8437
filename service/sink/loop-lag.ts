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
 * 15 s. A retry measured late across such a stall may be late because this machine was too busy
 * (the embedded reference shares the sink's process; on a starved machine every process stalls):
 * the lateness rules do not judge a gap the stall explains.
 */
const TICK_MS = 20;
const WINDOW_MS = 2_000;
const STALL_WINDOW_MS = 15_000;

export interface LoopLagMonitor {
  recentLagMs(): number;
  /** The longest lateness of the last STALL_WINDOW_MS, the current moment's included. */
  stallMs(): number;
  stop(): void;
}

export function startLoopLagMonitor(): LoopLagMonitor {
  const lags: Array<{ at: number; lag: number }> = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const lag = Math.max(0, now - last - TICK_MS);
    last = now;
    if (lag > 1) lags.push({ at: now, lag });
    while (lags.length && lags[0]!.at < now - STALL_WINDOW_MS) lags.shift();
  }, TICK_MS);
  timer.unref();
  const within = (windowMs: number) => {
    const now = performance.now();
    let max = Math.max(0, now - last - TICK_MS);
    for (const l of lags) if (l.at >= now - windowMs && l.lag > max) max = l.lag;
    return Math.round(max);
  };
  return {
    recentLagMs: () => within(WINDOW_MS),
    stallMs: () => within(STALL_WINDOW_MS),
    stop: () => clearInterval(timer),
  };
}
