/**
 * Thresholds written the way k6 users write them, one `--threshold EXPR` each:
 *
 *   [OPERATION:]METRIC OP VALUE[UNIT]      e.g.  create:p95<250   read:p99.9<800ms   errors<0.1%   rps>=500
 *
 *   OPERATION  create | read | list (default: the whole run)
 *   METRIC     pN (any percentile, e.g. p95, p99.9), min, mean (or avg), max: latency in ms (unit ms or s)
 *              rps: answers per second over the time measured
 *              errors: the error rate (a fraction, or with %): for the whole run, errors / attempts as
 *                --max-error-rate counts them; for one operation, its non-2xx answers over its answers
 *              rate_limited: the share of answers that were 429 (a fraction, or with %)
 *   OP         < <= > >=
 *
 * Every latency is read from the merged HdrHistogram (every worker; with `load merge`, every
 * shard), never from a part. A threshold with nothing to judge (no answer) fails: it cannot pass
 * on no evidence. The three older flags are expressions too: --max-p99-ms MS is `p99<=MS`,
 * --min-rps R is `rps>=R`, --max-error-rate F is `errors<=F`.
 */
import { HarnessError } from '../core/errors.ts';
import type { Figures } from './figures.ts';
import { mergeEncoded } from './histogram.ts';
import { OPS, type Op } from './scenarios.ts';

export type Comparator = '<' | '<=' | '>' | '>=';

export interface ThresholdExpression {
  text: string;
  op: Op | null;
  metric: string;
  /** For a percentile metric, the percentile (0-100). */
  percentile: number | null;
  cmp: Comparator;
  /** In the metric's own unit: ms for latencies, a fraction for rates, req/s for rps. */
  value: number;
}

export interface ExpressionResult {
  id: string;
  status: 'pass' | 'fail';
  limit: number;
  actual: number;
  detail: string;
}

const GRAMMAR = /^(?:(create|read|list):)?(p\d{1,3}(?:\.\d{1,4})?|min|mean|avg|max|rps|errors|rate_limited)\s*(<=|>=|<|>)\s*(\d+(?:\.\d+)?)(ms|s|%)?$/;
const LATENCY = new Set(['min', 'mean', 'avg', 'max']);

function bad(text: string, why: string): HarnessError {
  return new HarnessError(
    'HPS_ERR_USAGE',
    `--threshold ${JSON.stringify(text)}: ${why} (like create:p95<250, read:p99.9<800ms, errors<0.1%, rps>=500)`,
  );
}

export function parseThresholdExpression(raw: string): ThresholdExpression {
  const text = raw.trim();
  const m = GRAMMAR.exec(text);
  if (!m) throw bad(raw, 'not [OPERATION:]METRIC<VALUE');
  const [, op, metric, cmp, number, unit] = m as unknown as [string, Op | undefined, string, Comparator, string, string | undefined];
  const percentile = metric.startsWith('p') ? Number(metric.slice(1)) : null;
  if (percentile !== null && percentile > 100) throw bad(raw, 'a percentile is at most p100');
  let value = Number(number);
  if (percentile !== null || LATENCY.has(metric)) {
    if (unit === '%') throw bad(raw, 'a latency is in ms or s');
    if (unit === 's') value *= 1000;
  } else if (metric === 'rps') {
    if (unit) throw bad(raw, 'rps takes no unit');
  } else {
    if (unit === 'ms' || unit === 's') throw bad(raw, `${metric} is a rate: a fraction or a percentage`);
    if (unit === '%') value /= 100;
    if (value > 1) throw bad(raw, `${metric} is a rate from 0 to 1 (or 0% to 100%)`);
  }
  return { text, op: op ?? null, metric: metric === 'avg' ? 'mean' : metric, percentile, cmp, value };
}

/** What the figures say for the expression's metric, or null when there was nothing to judge. */
function measure(e: ThresholdExpression, f: Figures): { actual: number; what: string } | null {
  const encoded = e.op ? [f.raw.histograms[e.op]].filter((h): h is string => !!h) : OPS.map((op) => f.raw.histograms[op]).filter((h): h is string => !!h);
  const h = mergeEncoded(encoded);
  try {
    const count = h.totalCount;
    const scope = e.op ?? 'overall';
    if (e.percentile !== null || LATENCY.has(e.metric)) {
      if (count === 0) return null;
      const us = e.metric === 'mean' ? h.mean : h.getValueAtPercentile(e.metric === 'min' ? 0 : e.metric === 'max' ? 100 : e.percentile!);
      return { actual: Math.round(us) / 1000, what: `${scope} ${e.metric} latency (ms)` };
    }
    if (e.metric === 'rps') return {
      actual: e.op ? (f.latency_ms.by_operation[e.op]?.rps ?? 0) : f.achieved_rps,
      what: `${scope} rate (req/s over ${f.measured_s ?? f.window_s} s)`,
    };
    if (e.metric === 'errors' && !e.op) return f.responses + (f.failed ?? 0) === 0 ? null : { actual: f.errors.rate, what: 'error rate' };
    const statuses = e.op ? f.latency_ms.by_operation[e.op]?.statuses ?? {} : f.status_codes;
    const answers = Object.values(statuses).reduce((a, n) => a + n, 0);
    if (answers === 0) return null;
    const matching = Object.entries(statuses).filter(([s]) => (e.metric === 'errors' ? !s.startsWith('2') : s === '429')).reduce(
      (a, [, n]) => a + n,
      0,
    );
    return {
      actual: Math.round((matching / answers) * 1e6) / 1e6,
      what: `${scope} ${e.metric === 'errors' ? 'non-2xx share' : '429 share'}`,
    };
  } finally {
    h.destroy();
  }
}

const HOLDS: Record<Comparator, (
  a: number,
  b: number,
) => boolean> = { '<': (a, b) => a < b, '<=': (a, b) => a <= b, '>': (a, b) => a > b, '>=': (a, b) => a >= b };

export function evaluateExpression(e: ThresholdExpression, f: Figures): ExpressionResult {
  const m = measure(e, f);
  if (!m) return {
    id: e.text,
    status: 'fail',
    limit: e.value,
    actual: 0,
    detail: `${e.text}: nothing to judge (no answer${e.op ? ` to ${e.op}` : ''} in the measured window)`,
  };
  const ok = HOLDS[e.cmp](m.actual, e.value);
  const fmt = (v: number) => (e.metric === 'errors' || e.metric === 'rate_limited' ? `${(v * 100).toFixed(v > 0 && v < 0.001 ? 4 : 2)}%` : String(v));
  return {
    id: e.text,
    status: ok ? 'pass' : 'fail',
    limit: e.value,
    actual: m.actual,
    detail: `${m.what} ${fmt(m.actual)} ${ok ? 'holds' : 'breaks'} ${e.cmp} ${fmt(e.value)}`,
  };
}
