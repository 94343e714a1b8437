/**
 * How late this process's event loop runs callbacks, so an arrival time can say how far it may
 * be off. A timer ticks every TICK_MS; a tick that comes late by d ms means every callback of that
 * moment, a request handler included, ran d ms late. `recentLagMs()` is the largest lateness of
 * the last WINDOW_MS, and the lateness of the current moment (time since the last tick). An
 * arrival stamped while the loop was blocked is stamped late by at most that much; the webhook
 * rules widen their "too early" bound by it (a retry measured early because the previous
 * attempt's arrival was stamped late is the sink's error, not the target's). Unref'd: it never
 * keeps a process alive.
 */
const TICK_MS = 20;
const WINDOW_MS = 2_000;

export interface LoopLagMonitor {
  recentLagMs(): number;
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
    while (lags.length && lags[0]!.at < now - WINDOW_MS) lags.shift();
  }, TICK_MS);
  timer.unref();
  return {
    recentLagMs() {
      const now = performance.now();
      let max = Math.max(0, now - last - TICK_MS);
      for (const l of lags) if (l.at >= now - WINDOW_MS && l.lag > max) max = l.lag;
      return Math.round(max);
    },
    stop: () => clearInterval(timer),
  };
}
