/**
 * The spec's retry numbers as the judge applies them to a log (spec, Events › Delivery rules 2;
 * Limits). Written here, not imported from references/service/ (the thing judged) nor suites/ (the judge
 * stands apart from the runner); test/judge/judge-log.test.ts compares them with the suite's.
 */

/** Gap before attempt n+1 after attempt n failed (n = 1..7): immediately, 30 s, 2 min, 10 min, 30 min, 2 h, 6 h. */
export const RETRY_GAPS_MS: readonly number[] = [0, 30_000, 120_000, 600_000, 1_800_000, 7_200_000, 21_600_000];
/** 1 + 7 retries. */
export const MAX_ATTEMPTS = RETRY_GAPS_MS.length + 1;
/**
 * Real ms a retry may come before its gap and still count as on time: timer granularity and
 * delivery latency (a gap may count from the start or the end of the failed attempt). The same
 * slack as the suite's (suites/webhooks/limits.ts CLOCK_SLACK_MS).
 */
export const CLOCK_SLACK_MS = 250;
/**
 * How long the log must have watched after an 8th failed attempt for "no 9th attempt" to count, in
 * schedule time (divided by the time scale), at least 1 s of real time. An off-by-one sender reads
 * past the end of its schedule: no gap (at once) or its last one again.
 */
export const QUIET_AFTER_LAST_MS = 30 * 60_000;
export const MIN_QUIET_REAL_MS = 1_000;
/** Signature timestamp tolerance (spec, Signature 2). */
export const TIMESTAMP_TOLERANCE_S = 300;

export interface Timing {
  /** The target's retry clock runs this many times faster (webhooks.time_scale); 1 for a real staging. */
  timeScale: number;
  /** webhooks.late_tolerance_ms, when the profile sets it. */
  lateToleranceMs?: number;
}

/** The gap before attempt n + 1 (n ≥ 1), in real ms. */
export function scaledGapMs(t: Timing, n: number): number {
  return (RETRY_GAPS_MS[n - 1] ?? 0) / t.timeScale;
}

/** Lateness allowed after a gap before HOOK-RETRY-PUNCTUAL warns: the profile's, or max(3 s, 50 % of the gap) as in the run. */
export function lateToleranceMs(t: Timing, scaledGap: number): number {
  return t.lateToleranceMs ?? Math.max(3000, scaledGap * 0.5);
}

export function quietAfterLastMs(t: Timing): number {
  return Math.max(MIN_QUIET_REAL_MS, QUIET_AFTER_LAST_MS / t.timeScale);
}

/** A schedule duration for people: `30 s`, `2 min`, `6 h`, `immediately`. */
export function gapName(ms: number): string {
  if (ms === 0) return 'immediately';
  if (ms < 60_000) return `${ms / 1000} s`;
  if (ms < 3_600_000) return `${ms / 60_000} min`;
  return `${ms / 3_600_000} h`;
}

/** Real milliseconds for people: `840 ms`, `12.4 s`, `3 h 12 min`. */
export function realDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  const min = Math.round(ms / 60_000);
  return min < 120 ? `${min} min` : `${Math.floor(min / 60)} h ${min % 60} min`;
}
