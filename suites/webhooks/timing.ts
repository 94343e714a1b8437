/**
 * The retry schedule divided by `webhooks.time_scale`, the lateness allowed after a gap, and the
 * quiet period after which what did not arrive counts as not sent.
 */
import type { RuleContext } from '../../service/harness/worker/rule-test.ts';
import type { Hooks } from '../_shared/webhook-hooks.ts';
import { RETRY_GAPS_MS } from './limits.ts';

/** The scaled gap before attempt `n + 1` (n ≥ 1), in real ms. */
export function scaledGapMs(h: Hooks, n: number): number {
  return (RETRY_GAPS_MS[n - 1] ?? 0) / h.scale;
}

/** Where the schedule puts attempt `n` (n ≥ 1): the scaled gaps before it, in real ms after attempt 1. */
export function scheduleOffsetMs(h: Hooks, n: number): number {
  let sum = 0;
  for (let i = 1; i < n; i++) sum += scaledGapMs(h, i);
  return sum;
}

/**
 * Lateness allowed after a gap before HOOK-RETRY-PUNCTUAL warns: `webhooks.late_tolerance_ms`, or
 * max(3000 ms, 50 % of the scaled gap). A queue-based sender is never exact; and the embedded
 * reference shares its process (one event loop) with the runner and the sink, where pauses of over
 * a second were seen on a loaded 2-CPU host — every pending retry then arrives that much late. A
 * sender whose gaps are wrong by a step (2 h instead of 1 h …) is late by far more.
 */
export function lateToleranceMs(t: RuleContext, scaledGap: number): number {
  return t.profile.webhooks?.late_tolerance_ms ?? Math.max(3000, scaledGap * 0.5);
}

/**
 * A quiet period after the positive deliveries arrived: what should not come would have come
 * about as fast as what did. Three times the slowest delivery latency seen, between 1 s and 3 s.
 */
export function quietMs(latencyMs: number): number {
  return Math.min(3000, Math.max(1000, Math.ceil(3 * latencyMs)));
}
