/**
 * Areas whose rules need the target to themselves, and the areas that may be held meanwhile.
 *
 * The rate-limit probes count requests per key and judge a 429 on another key, so nothing else may
 * be sending while they run. They take their turn once every suite left is one that may be held
 * (core/target-gate.ts: the runner says so when the other files have ended), and those suites'
 * requests wait at the gate until the exclusive file ends: the webhooks area, whose tests mostly
 * wait for deliveries (the retry ladder, the spec's 10 s time-out) and judge what reached the sink,
 * never the time between their own requests. Before, the exclusive area ran after every other suite,
 * alone: the same guarantee, ~5 s of Retry-After waits added to every run.
 */
export const EXCLUSIVE_AREAS: ReadonlySet<string> = new Set(['limits']);
export const HELD_DURING_EXCLUSIVE: ReadonlySet<string> = new Set(['webhooks']);
