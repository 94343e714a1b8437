/**
 * The suite against the clean reference server: the whole run is conformant,
 * no rule fails, warns, errors or is flaky, and every testable MUST rule ran
 * (a run that skips MUST rules against the reference would hide holes).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../catalogue/report/model.ts';
import { runChild } from './support/run-child.ts';

const BIN = join(import.meta.dirname, '..', 'bin', 'hps-conformance.mjs');

describe('suite vs the clean reference server', () => {
  it('is conformant with every testable MUST rule passing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hps-ref-'));
    const r = await runChild(process.execPath, [BIN, 'run', '--seed', '20261121', '--report', dir], { timeoutMs: 300_000 });
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
