/**
 * The thresholds that fail CI. They come from flags only: the profile schema allows no `load`
 * object (additionalProperties: false), so a CI job states its thresholds on the command line.
 * They judge the whole run (every worker; with `load merge`, every shard), never a part.
 */
import { fmtRate } from '../results/render/load-text.ts';
import type { Figures } from './figures.ts';
import type { Thresholds } from './options.ts';
import { evaluateExpression, parseThresholdExpression } from './threshold-expressions.ts';

export interface ThresholdResult {
  /** A flag's threshold, or the text of a `--threshold` expression. */
  id: 'max-p99-ms' | 'min-rps' | 'max-error-rate' | 'rate-reached' | (string & {});
  status: 'pass' | 'fail' | 'off';
  limit: number;
  actual: number;
  detail: string;
}

/** The open model's offered rate counts as reached when at most this share (or one request) was never sent. */
export const SHORTFALL_TOLERANCE = 0.01;

export function evaluateThresholds(t: Thresholds, f: Figures): ThresholdResult[] {
  const out: ThresholdResult[] = [];
  const p99 = f.latency_ms.overall.p99;
  const p99Fail = f.responses === 0 || p99 > t.maxP99Ms;
  // 'no response was received' would be wrong when answers came only in the warm-up: say so.
  const from = f.model === 'open' ? 'from the due time' : 'from the send time';
  out.push({
    id: 'max-p99-ms',
    status: p99Fail ? 'fail' : 'pass',
    limit: t.maxP99Ms,
    actual: p99,
    detail: f.responses === 0 ? (f.warmup_responses ? `no response in the measured window (${f.warmup_responses} in the warm-up, not ` +
      `measured)` : 'no response was received') : `p99 latency (${from}) ${p99} ms ${p99Fail ? '>' : '≤'} ${t.maxP99Ms} ms`,
  });
  const rps = f.achieved_rps;
  if (t.minRps > 0) {
    const fail = rps < t.minRps;
    out.push({
      id: 'min-rps',
      status: fail ? 'fail' : 'pass',
      limit: t.minRps,
      actual: rps,
      detail: `achieved ${rps} req/s ${fail ? '<' : '≥'} ${t.minRps} req/s`,
    });
  } else out.push({ id: 'min-rps', status: 'off', limit: 0, actual: rps, detail: `achieved ${rps} req/s (no minimum: --min-rps 0)` });
  const errFail = f.errors.rate > t.maxErrorRate;
  out.push({
    id: 'max-error-rate',
    status: errFail ? 'fail' : 'pass',
    limit: t.maxErrorRate,
    actual: f.errors.rate,
    detail: `error rate ${fmtRate(f.errors.rate)} ${errFail ? '>' : '≤'} ${fmtRate(t.maxErrorRate)}`,
  });
  out.push(rateReached(t, f));
  for (const text of t.expressions ?? []) out.push(evaluateExpression(parseThresholdExpression(text), f));
  return out;
}

function rateReached(t: Thresholds, f: Figures): ThresholdResult {
  if (f.model === 'closed') return {
    id: 'rate-reached',
    status: 'off',
    limit: SHORTFALL_TOLERANCE,
    actual: 0,
    detail: 'closed model (no --rate): no rate is offered',
  };
  const refused = rateRefused(t, f);
  if (refused) return refused;
  // One request at the window's edge is the counting's granularity, not a lack of capacity: a short
  // run (60 due) must not fail on it.
  const short = f.shortfall > SHORTFALL_TOLERANCE && f.due - f.sent > 1;
  const text = `offered ${f.offered_rps} req/s, achieved ${f.achieved_rps} req/s: ${f.sent} requests sent in the window for ${f.due} ` +
    `due, ${f.not_sent} never sent (short by ${fmtRate(f.shortfall)})`;
  if (!short) return {
    id: 'rate-reached',
    status: 'pass',
    limit: SHORTFALL_TOLERANCE,
    actual: f.shortfall,
    detail: `${text} ≤ ${fmtRate(SHORTFALL_TOLERANCE)}`,
  };
  return {
    id: 'rate-reached',
    status: t.allowShort ? 'off' : 'fail',
    limit: SHORTFALL_TOLERANCE,
    actual: f.shortfall,
    detail: `RATE NOT REACHED: ${text} > ${fmtRate(SHORTFALL_TOLERANCE)}${t.allowShort ? ' (allowed by --allow-short)' : ''}`,
  };
}

/**
 * Open model: a target that answers 429 did not accept the offered rate, whatever was sent. Judged
 * like the shortfall (more than 1% of the answers, and more than one), allowed by --allow-short.
 */
function rateRefused(t: Thresholds, f: Figures): ThresholdResult | null {
  const limited = f.rate_limited?.count ?? 0;
  const share = f.rate_limited?.share_of_responses ?? 0;
  if (share <= SHORTFALL_TOLERANCE || limited <= 1) return null;
  const asked = f.rate_limited?.retry_after_s ? `, Retry-After ${f.rate_limited.retry_after_s.min}–${f.rate_limited.retry_after_s.max} ` +
    `s` : '';
  return {
    id: 'rate-reached',
    status: t.allowShort ? 'off' : 'fail',
    limit: SHORTFALL_TOLERANCE,
    actual: share,
    detail: `OFFERED RATE NOT ACCEPTED: offered ${f.offered_rps} req/s, ${limited} of ${f.responses} answers were 429 ` +
      `(${fmtRate(share)}${asked}); accepted ${f.accepted_rps ?? 0} req/s${t.allowShort ? ' (allowed by --allow-short)' : ''}`,
  };
}

