/**
 * RECV-DEDUPLICATE over the service's own retry schedule (spec, Delivery rules 2: a failed
 * delivery is retried immediately, then after 30 s, 2 min, 10 min, 30 min, 2 h and 6 h). The
 * same event (same id, byte-identical body, a fresh signature as the service signs each attempt)
 * is redelivered at the schedule's first gaps, each after the previous attempt: by default the
 * immediate retry and the next two (30 s, then 2 min), a window of 2 min 30 s. The evidence
 * states the window proven and the schedule's length; it never claims more.
 */

/** The schedule's gaps, each after the previous attempt (ms). */
export const SCHEDULE_GAPS_MS: readonly number[] = [0, 30_000, 120_000, 600_000, 1_800_000, 7_200_000, 21_600_000];

export interface DedupPlan {
  /** Redeliveries along the schedule after the first delivery: 1 (the immediate retry) to 7 (the whole schedule). */
  attempts: number;
  /** The gaps divided by this (rehearsals and tests only; 1 in a certification: the evidence says so). */
  timeScale: number;
}

export const DEFAULT_DEDUP: DedupPlan = { attempts: 3, timeScale: 1 };

/** The waits before each redelivery, in ms (scaled). */
export function redeliveryGaps(plan: DedupPlan): number[] {
  return SCHEDULE_GAPS_MS.slice(0, plan.attempts).map((g) => g / plan.timeScale);
}

/** 150000 → "2 min 30 s"; 31350000 → "8 h 42 min 30 s"; under a second in ms. */
export function spoken(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 100) / 10;
  const [h, m, r] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), Math.round((s % 60) * 10) / 10];
  return [h ? `${h} h` : '', m ? `${m} min` : '', r ? `${r} s` : ''].filter(Boolean).join(' ') || '0 s';
}

/** What a passing RECV-DEDUPLICATE proved: the window, against the schedule's length. */
export function windowStatement(plan: DedupPlan): string {
  const gaps = SCHEDULE_GAPS_MS.slice(0, plan.attempts);
  const real = gaps.reduce((a, b) => a + b, 0);
  const whole = SCHEDULE_GAPS_MS.reduce((a, b) => a + b, 0);
  const steps = gaps.map((g) => (g === 0 ? 'immediately' : spoken(g))).join(', ');
  const of = `of the schedule's ${spoken(whole)} (redelivered ${steps}, each after the previous attempt)`;
  if (plan.timeScale === 1) return `proved for ${spoken(real)} ${of}`;
  return `proved for ${spoken(real / plan.timeScale)} only: the schedule's gaps at 1/${plan.timeScale} of their length ` +
    `(--dedup-time-scale ${plan.timeScale}), ${spoken(real)} ${of} at full length`;
}
