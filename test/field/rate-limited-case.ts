/**
 * One case of the rate-limited service (test/field/rate-limited.test.ts and
 * rate-limited-areas.test.ts): the suite through a proxy that rate-limits every key, conformant,
 * 0 FAIL/WARN/ERROR, every testable MUST rule ran, the 429s waited out and reported. The cases are
 * two files so that vitest runs them in two workers side by side (they wait out 429s, one after
 * the other they were ten minutes of the run's wall time); the areas file's four cases (one area
 * each) run side by side too. vitest.config.ts runs both files in a pool of their own (test/support/test-groups.ts
 * WAITING): their waiting never holds a slot of the CPU-bound files.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runThroughProxy } from '../perf/field-run.ts';
import type { RateLimitSpec } from '../perf/field-proxy.ts';
import type { Report } from '../../catalogue/report/model.ts';
import { tcpCounters, tcpCountersSince } from '../support/tcp-counters.ts';

export interface RateLimitCase { spec: RateLimitSpec; areas?: string; budgetMs: number }

export function rateLimitedCase(c: RateLimitCase): void {
  const label = `${c.spec.limit} per ${c.spec.windowMs / 1000} s, ${c.spec.kind} window${c.areas ? ` (${c.areas})` : ' (the whole suite)'}`;
  it(`${label}: conformant, 0 FAIL/WARN/ERROR, every testable MUST rule ran, the 429s waited out and reported`, async () => {
    const tcpBefore = tcpCounters();
    const f = await runThroughProxy({ rateLimit: c.spec }, c.areas ? ['--area', c.areas] : [], 1, c.budgetMs);
    const tcp = tcpCountersSince(tcpBefore);
    const report = JSON.parse(readFileSync(join(f.run.reportDir, 'report.json'), 'utf8')) as Report;
    const floorS = (f.proxy.busiestKey / c.spec.limit) * (c.spec.windowMs / 1000);
    const { fail, warn, error } = f.run.summary;
    const counts = `FAIL ${fail} WARN ${warn} ERROR ${error}, MUST ${report.must.ran}/${report.must.testable}`;
    const problems = f.run.problems.length ? `\n  ${f.run.problems.join('\n  ')}` : '';
    const timing = `${(f.run.wallMs / 1000).toFixed(1)} s (floor ${floorS.toFixed(1)} s; ` +
      `the service's event loop late by ${f.proxy.maxLoopDelayMs} ms at most, a webhook retry started ` +
      `${f.proxy.retries.latestStartMs} ms late at most, its longest attempt ${f.proxy.retries.longestAttemptMs} ms` +
      `${tcp ? `; the machine's TCP: ${tcp}` : ''})`;
    console.log(`${label}: exit ${f.run.exitCode}, ${f.run.verdict}, ${counts}, 429s from the proxy ${f.proxy.limited}, ` +
      `waited out ${report.traffic?.total.throttled}, ${timing}${problems}`);
    expect(f.proxy.upstreamErrors).toEqual([]);
    expect(f.run.problems).toEqual([]);
    expect(f.run.verdict).toBe('conformant');
    expect(f.run.exitCode).toBe(0);
    // Which MUST rules did not pass, and why: a count alone (114 of 115) said nothing once.
    const notPassed = report.rules.filter((r) => r.level === 'MUST' && r.status !== 'pass' && r.status !== 'info')
      .map((r) => `${r.id} ${r.status}: ${r.reason ?? ''}`);
    expect(report.must.ran, notPassed.join('\n')).toBe(report.must.testable);
    expect(f.proxy.limited).toBeGreaterThan(0);
    expect(report.traffic!.total.throttled).toBeGreaterThan(0);
  }, c.budgetMs + 30_000);
}
