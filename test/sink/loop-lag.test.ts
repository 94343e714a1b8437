/**
 * service/sink/loop-lag.ts: the sink knows how late its own event loop ran, so the webhook rules
 * do not blame the target for its stalls. A blocked loop shows as lag right after the block
 * (recentLagMs, the arrival stamp's possible error) and for 15 s after it (stallMs, what may have
 * delayed a retry of the embedded reference in the same process), and stallSpans says when.
 */
import { describe, expect, it } from 'vitest';
import { startLoopLagMonitor } from '../../service/sink/loop-lag.ts';

const block = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end) { /* the loop is blocked */ }
};
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the sink measures its own event loop', () => {
  it('a 400 ms block shows in recentLagMs and stallMs, and 2.5 s later still in stallMs', async () => {
    const m = startLoopLagMonitor();
    try {
      await tick(60);
      block(400);
      await tick(60);
      expect(m.recentLagMs()).toBeGreaterThanOrEqual(300);
      expect(m.stallMs()).toBeGreaterThanOrEqual(300);
      await tick(2_500);
      expect(m.stallMs()).toBeGreaterThanOrEqual(300);
    } finally {
      m.stop();
    }
  });

  it('says when the loop stood still: a span of the block, where it was', async () => {
    const m = startLoopLagMonitor();
    try {
      await tick(60);
      const before = performance.timeOrigin + performance.now();
      block(400);
      const after = performance.timeOrigin + performance.now();
      await tick(60);
      const { spans } = m.stallSpans();
      const covering = spans.filter(([s, e]) => e > before && s < after);
      const covered = covering.reduce((n, [s, e]) => n + Math.min(e, after) - Math.max(s, before), 0);
      expect(covered).toBeGreaterThanOrEqual(300);
      expect(spans.length).toBeLessThanOrEqual(32);
    } finally {
      m.stop();
    }
  });
});
