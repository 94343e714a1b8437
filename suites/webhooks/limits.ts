/**
 * The spec's webhook numbers (Limits; Delivery request; Signature) and the suite's own bounds
 * around them. Only the webhooks suites use them.
 */

/** Gap before attempt n+2 after attempt n+1 failed: immediately, 30 s, 2 min, 10 min, 30 min, 2 h, 6 h (Limits). */
export const RETRY_GAPS_MS: readonly number[] = [0, 30_000, 120_000, 600_000, 1_800_000, 7_200_000, 21_600_000];
/** 1 + 7 retries (DESIGN: spec gaps). */
export const MAX_ATTEMPTS = RETRY_GAPS_MS.length + 1;
/** Webhook response time-out (Limits); never scaled. */
export const RESPONSE_TIMEOUT_MS = 10_000;
/** How long the sink holds a `timeout:<N>` answer before answering 200 (service/sink/README.md). */
export const SINK_HOLD_MS = 12_000;
export const USER_AGENT = 'Service-Webhooks/1.0';
/** Signature timestamp tolerance (Signature 2, Limits). */
export const TIMESTAMP_TOLERANCE_S = 300;

/**
 * Slack for "no retry earlier than its gap", in real (unscaled) ms. The suite sees arrivals only; the
 * spec does not say from which instant a gap counts (end or start of the failed attempt). A sender that
 * counts from the start of its attempt puts gap + (latency of attempt n+1 − latency of attempt n)
 * between arrivals, and that latency varies (a busy sender's event loop, the network): up to ~100 ms
 * was seen on loopback under load. 250 ms covers that jitter and timer granularity; at time_scale 1
 * it is under 1 % of the shortest timed gap; at the embedded reference's 4000 a retry that skipped a
 * step of the schedule still falls short by 1.35 s or more from the 2 h gap on (300 ms at the 30 min
 * gap; at 2000, 600 ms there).
 */
export const CLOCK_SLACK_MS = 250;
/** Extra bound, on top of the scheduled gaps, for a retry to arrive before it counts as missing. */
export const RETRY_MARGIN_MS = 5_000;
/**
 * Budget of real time the retry ladder may take. Gaps whose scaled sum fits are checked; the
 * first two gaps (immediately, 30 s) are always checked, whatever the scale.
 */
export const LADDER_BUDGET_MS = 60_000;
