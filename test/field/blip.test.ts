/**
 * A blip is survived: five connections reset mid-run (the proxy drops them without an answer,
 * the target healthy before and after) give the same verdict as the run without them. Reads and
 * keyed creates are sent again; a test whose request cannot be sent twice (a cancel, a create
 * without a key) runs again once the target answers; the report counts both.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runThroughProxy } from '../perf/field-run.ts';
import type { Report } from '../../catalogue/report/model.ts';

it('five connections reset at request 400: conformant, as without them, and the report counts the retries', async () => {
  const f = await runThroughProxy({ resetAfter: 400, resets: 5 }, [], 3, 400_000);
  const report = JSON.parse(readFileSync(join(f.run.reportDir, 'report.json'), 'utf8')) as Report;
  const c = report.traffic!.total;
  console.log(`blip: exit ${f.run.exitCode}, ${f.run.verdict}, dropped ${f.proxy.dropped}, requests sent again ${c.transport_retries}, rule tests run again ${c.reruns}, ${(f.run.wallMs / 1000).toFixed(1)} s${f.run.problems.length ? `\n  ${f.run.problems.join('\n  ')}` : ''}`);
  expect(f.proxy.dropped).toBe(5);
  expect(f.run.problems).toEqual([]);
  expect(f.run.verdict).toBe('conformant');
  expect(f.run.exitCode).toBe(0);
  expect(c.transport_retries + c.reruns).toBeGreaterThan(0);
}, 420_000);
