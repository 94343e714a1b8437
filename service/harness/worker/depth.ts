/**
 * How many cases a property runs: derived from the run's `--runs`, so a deeper run (`--runs 1000`)
 * sends more and `--runs 100` (the default) keeps the depth each property was tuned for.
 *
 * `share(t.runs, 0.4)` is 40 cases at --runs 100, 400 at --runs 1000, and at least 1: the fraction
 * says how expensive one case is next to a plain property run (a case that creates several
 * Payments, waits on a delivery or walks a list is worth more than one request). A property is
 * never capped below what the user asked except by one of the named COST_BOUNDS, each saying
 * what the target would pay for more. The report gives the cases each test actually ran
 * (report.json rules[].tests[].cases).
 */

/** A bound on a property's cases set by what each case costs the target, not by our patience. */
export interface CostBound {
  readonly max: number;
  readonly why: string;
}

export const COST_BOUNDS = {
  /** live/: each case creates a Live Payment on the target's real business. */
  liveWrites: {
    max: 12,
    why: 'each case creates a Live Payment on a real business (probes.live_writes): a deeper run buys no more Live objects than 12 per ' +
      'property',
  },
  /** webhooks/: each case waits on the target's delivery schedule. */
  deliveryWaits: {
    max: 24,
    why: 'each case waits on the target\'s webhook delivery schedule (30 s and more per case at time_scale 1): 24 cases per property at ' +
      'most',
  },
} as const satisfies Record<string, CostBound>;

/**
 * The cases of a property: `fraction` of --runs, within `bound` when one applies. Below the default
 * (a quick run, the mutation score's --runs 25) never fewer than the property's tuned count at
 * --runs 100, or --runs itself if smaller: a quick run must not shrink an expensive property to a
 * case or two, where the edge it exists for would be left to chance.
 */
export function share(runs: number, fraction: number, bound?: CostBound): number {
  if (!(fraction > 0)) throw new Error(`share: fraction ${fraction} must be positive`);
  const n = Math.max(1, Math.min(runs, Math.round(100 * fraction)), Math.round(runs * fraction));
  return bound ? Math.min(n, bound.max) : n;
}
