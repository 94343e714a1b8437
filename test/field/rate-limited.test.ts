/**
 * A conformant service that rate-limits every key (the spec: "Rate limiting exists per key …
 * thresholds and window: not shown") stays conformant: the suite waits out every 429 the way the
 * client guidance says and judges nothing about it. The whole suite at 20 requests/s per key
 * (fixed one-second windows), and a few areas at 5/s (a sliding window) and at 25 per 5 s
 * (Retry-After up to 5 s). Every MUST rule that runs without a limit runs with it. The full
 * matrix (5, 20 and 100 per second, fixed and sliding) is `npm run bench:field -- --only limits`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runThroughProxy } from '../../bench/field-run.ts';
import type { RateLimitSpec } from '../../bench/field-proxy.ts';
import type { Report } from '../../report/model.ts';

const CASES: Array<{ spec: RateLimitSpec; areas?: string; budgetMs: number }> = [
  { spec: { limit: 20, windowMs: 1000, kind: 'fixed' }, budgetMs: 900_000 },
  { spec: { limit: 5, windowMs: 1000, kind: 'sliding' }, areas: 'auth,idempotency', budgetMs: 600_000 },
  { spec: { limit: 25, windowMs: 5000, kind: 'sliding' }, areas: 'listing,transitions', budgetMs: 600_000 },
];

// The three cases side by side: each has its own reference and proxy (its own keys and limits),
// and each spends its time waiting out its 429s, not on the CPU. One after the other they took
// about ten minutes of the suite's wall time; side by side, the longest of them.
describe.concurrent('a service that rate-limits every key', () => {
  for (const c of CASES) {
    const label = `${c.spec.limit} per ${c.spec.windowMs / 1000} s, ${c.spec.kind} window${c.areas ? ` (${c.areas})` : ' (the whole suite)'}`;
    it(`${label}: conformant, 0 FAIL/WARN/ERROR, every testable MUST rule ran, the 429s waited out and reported`, async () => {
      const f = await runThroughProxy({ rateLimit: c.spec }, c.areas ? ['--area', c.areas] : [], 1, c.budgetMs);
      const report = JSON.parse(readFileSync(join(f.run.reportDir, 'report.json'), 'utf8')) as Report;
      const floorS = (f.proxy.busiestKey / c.spec.limit) * (c.spec.windowMs / 1000);
      console.log(`${label}: exit ${f.run.exitCode}, ${f.run.verdict}, FAIL ${f.run.summary.fail} WARN ${f.run.summary.warn} ERROR ${f.run.summary.error}, MUST ${report.must.ran}/${report.must.testable}, 429s from the proxy ${f.proxy.limited}, waited out ${report.traffic?.total.throttled}, ${(f.run.wallMs / 1000).toFixed(1)} s (floor ${floorS.toFixed(1)} s)${f.run.problems.length ? `\n  ${f.run.problems.join('\n  ')}` : ''}`);
      expect(f.proxy.upstreamErrors).toEqual([]);
      expect(f.run.problems).toEqual([]);
      expect(f.run.verdict).toBe('conformant');
      expect(f.run.exitCode).toBe(0);
      // Which MUST rules did not pass, and why: a count alone (114 of 115) said nothing once.
      const notPassed = report.rules.filter((r) => r.level === 'MUST' && r.status !== 'pass' && r.status !== 'info').map((r) => `${r.id} ${r.status}: ${r.reason ?? ''}`);
      expect(report.must.ran, notPassed.join('\n')).toBe(report.must.testable);
      expect(f.proxy.limited).toBeGreaterThan(0);
      expect(report.traffic!.total.throttled).toBeGreaterThan(0);
    }, c.budgetMs + 30_000);
  }
});
