/**
 * A run at time_scale 1 (any real staging) keeps its behaviour and says which webhook rules it only
 * partly checked and what completes them: the console line, summary.md, report.html and report.json
 * (observed.partly_checked) carry the exact commands of the long run and its judge. Without the
 * suite's message (suites/webhooks/retries.rules.ts) nothing is listed: these assertions fail.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { readReportFile } from '../../core/report-file.ts';
import { partlyChecked } from '../../catalogue/report/partly-checked.ts';
import type { Report } from '../../catalogue/report/model.ts';
import { runMain } from '../load/helpers.ts';

it('run --time-scale 1: HOOK-MAX-ATTEMPTS is SKIP, listed as partly checked with the sink and judge commands everywhere', async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'hps-partly-')), 'r');
  const r = await runMain(['run', '--rule', 'HOOK-MAX-ATTEMPTS', '--time-scale', '1', '--report', dir, '--no-progress']);
  expect(r.code, r.err).toBe(0);
  const report = readReportFile(dir) as Report;
  expect(report.rules.find((x) => x.id === 'HOOK-MAX-ATTEMPTS')!.status).toBe('skip');
  const partly = partlyChecked(report);
  expect(partly.map((p) => p.id)).toEqual(['HOOK-MAX-ATTEMPTS']);
  const commands = [/hps-conformance sink --profile P --log FILE/, /hps-conformance webhooks judge --log FILE --profile P --report DIR/];
  for (const c of commands) {
    expect(partly[0]!.text).toMatch(c);
    expect(r.out).toMatch(c);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toMatch(c);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8').replace(/\\/g, '')).toMatch(c);
  }
  expect(r.out).toMatch(/PARTLY CHECKED HOOK-MAX-ATTEMPTS/);
}, 120_000);
