/**
 * The thresholds that fail CI. They come from flags only: the profile schema allows no `load`
 * object (additionalProperties: false), so a CI job states its thresholds on the command line.
 */
import type { Thresholds } from './options.ts';

export interface ThresholdResult {
  id: 'max-p99-ms' | 'min-rps' | 'max-error-rate';
  status: 'pass' | 'fail' | 'off';
  limit: number;
  actual: number;
  detail: string;
}

export interface ThresholdInput {
  p99Ms: number;
  responses: number;
  meanRps: number;
  errorRate: number;
}

export function evaluateThresholds(t: Thresholds, x: ThresholdInput): ThresholdResult[] {
  const out: ThresholdResult[] = [];
  const p99Fail = x.responses === 0 || x.p99Ms > t.maxP99Ms;
  out.push({
    id: 'max-p99-ms',
    status: p99Fail ? 'fail' : 'pass',
    limit: t.maxP99Ms,
    actual: x.p99Ms,
    detail: x.responses === 0 ? 'no response was received' : `p99 latency ${x.p99Ms} ms ${p99Fail ? '>' : '≤'} ${t.maxP99Ms} ms`,
  });
  if (t.minRps > 0) {
    const fail = x.meanRps < t.minRps;
    out.push({ id: 'min-rps', status: fail ? 'fail' : 'pass', limit: t.minRps, actual: x.meanRps, detail: `mean throughput ${x.meanRps} req/s ${fail ? '<' : '≥'} ${t.minRps} req/s` });
  } else {
    out.push({ id: 'min-rps', status: 'off', limit: 0, actual: x.meanRps, detail: `mean throughput ${x.meanRps} req/s (no minimum: --min-rps 0)` });
  }
  const errFail = x.errorRate > t.maxErrorRate;
  out.push({
    id: 'max-error-rate',
    status: errFail ? 'fail' : 'pass',
    limit: t.maxErrorRate,
    actual: x.errorRate,
    detail: `error rate ${fmtRate(x.errorRate)} ${errFail ? '>' : '≤'} ${fmtRate(t.maxErrorRate)}`,
  });
  return out;
}

export function fmtRate(r: number): string {
  return `${(r * 100).toFixed(r > 0 && r < 0.001 ? 4 : 2)}%`;
}
