/**
 * The suite against the clean reference server: the whole run is conformant,
 * no rule fails, warns, errors or is flaky, and every testable MUST rule ran
 * (a run that skips MUST rules against the reference would hide holes).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../catalogue/report/model.ts';
import { sharedRun } from './support/shared-run.ts';

describe('suite vs the clean reference server', () => {
  it('is conformant with every testable MUST rule passing', async () => {
    // Made once per `npm test` (support/shared-run.ts): the clean reference's whole run, for any test that reads it.
    const r = await sharedRun(['--seed', '20261121'], { timeoutMs: 300_000 });
    const dir = r.reportDir;
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    const bad = report.rules.filter((x) => [
      'fail',
      'warn',
      'error',
      'flaky',
    ].includes(x.status)).map((x) => `${x.id} ${x.status}: ${x.reason}`);
    expect(bad, r.stdout + r.stderr).toEqual([]);
    expect(r.status).toBe(0);
    expect(report.verdict).toBe('conformant');
    const notRun = report.rules.filter((x) => x.level === 'MUST' && !x.untestable && x.status !== 'pass').map((x) => `${x.id}: ${x.reason}`);
    expect(notRun).toEqual([]);
    for (const f of ['report.html', 'junit.xml', 'summary.md']) expect(readFileSync(join(dir, f), 'utf8').length).toBeGreaterThan(100);
  }, 320_000);
});
