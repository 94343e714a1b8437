/**
 * report.json is validated against catalogue/schemas/report.ts before `report DIR` / `report --compare`
 * render it. The schema accepts every report the tool writes (a service run, failing and clean;
 * the receiver and the client sides, with planted faults; a mutation section) and refuses a bad
 * one with exit 2 and one line naming the file and the JSON path of the first problem.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runExampleClient } from '../../merchant/client/mutation.ts';
import { readReportFile } from '../../core/report-file.ts';
import type { Report } from '../../catalogue/report/model.ts';
import { runMain } from '../load/helpers.ts';
import { runChild } from '../support/run-child.ts';
import { enrichedFailingReport } from './failing-report.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures');
const tmp = mkdtempSync(join(tmpdir(), 'hps-report-schema-'));
let n = 0;

function dirWith(report: unknown, certificate?: unknown): string {
  const d = join(tmp, `r${n++}`);
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, 'report.json'), typeof report === 'string' ? report : JSON.stringify(report));
  if (certificate !== undefined) writeFileSync(join(d, 'certificate.json'), JSON.stringify(certificate));
  return d;
}

const clone = (): Report => structuredClone(enrichedFailingReport());

describe('the report.json schema accepts every report the tool writes', () => {
  it('real service runs (fixtures), the enriched failing report, a mutation section', () => {
    for (const f of readdirSync(FIXTURES).filter((x) => x.startsWith('report-'))) {
      const d = join(tmp, f);
      mkdirSync(d, { recursive: true });
      cpSync(join(FIXTURES, f), join(d, 'report.json'));
      expect(() => readReportFile(d), f).not.toThrow();
    }
    const withMutation = clone();
    withMutation.mutation = {
      seed: 1, seeds: [1, 2], runs: 10, faults: 1, caught: 1, byChance: 0, score: 1, duration_ms: 1200, unexercised: ['A-B'],
      results: [{
        fault: 'f',
        description: 'd',
        control: false,
        areas: ['create'],
        expected: ['A-B'],
        failed: ['A-B'],
        caughtBy: ['A-B'],
        caught: true,
        byChance: false,
        duration_ms: 5,
        seeds: [{ seed: 1, failed: ['A-B'], caughtBy: ['A-B'], caught: true, exitCode: 1, duration_ms: 5 }],
      }],
    };
    withMutation.policy = { strict: true, min_must_coverage: 80, failed_because: ['x'] };
    withMutation.stopped = 'stopped after 1 FAIL rule(s)';
    expect(() => readReportFile(dirWith(withMutation))).not.toThrow();
  });

  it('the receiver side (clean and with a planted fault) and the client side (with a planted fault), then --compare on the receivers (and not across sides)', async () => {
    const clean = join(tmp, 'recv-clean');
    const faulty = join(tmp, 'recv-fault');
    expect((await runMain(['receiver', '--seed', '3', '--dedup-time-scale', '60', '--report', clean])).code).toBe(0);
    expect((await runMain([
      'receiver',
      '--seed',
      '3',
      '--dedup-time-scale',
      '60',
      '--fault',
      'skips-verification',
      '--report',
      faulty,
    ])).code).toBe(1);
    const client = await runExampleClient('no-idempotency-key', 4);
    const clientDir = dirWith(client);
    for (const d of [clean, faulty, clientDir]) expect(() => readReportFile(d), d).not.toThrow();
    const cmp = await runMain(['report', '--compare', clean, faulty, '--out', join(tmp, 'cmp.html')]);
    expect(cmp.code, cmp.err).toBe(0);
    // Reports of different sides are never one table: refused with one line, exit 2.
    const mixed = await runMain(['report', '--compare', clean, faulty, clientDir, '--out', join(tmp, 'cmp.html')]);
    expect(mixed.code).toBe(2);
    expect(mixed.err.trim().split('\n')).toHaveLength(1);
    expect(mixed.err).toContain('the reports are of different sides');
  }, 120_000);
});

describe('a report.json that does not match is refused before rendering', () => {
  const cases: Array<[string, (r: any) => void, string]> = [
    ['a string where the seed is', (r) => (r.seed = '<script>alert(1)</script>'), '$.seed: must be integer'],
    ['a string where runs is', (r) => (r.runs = '"><img src=x onerror=alert(1)>'), '$.runs: must be integer'],
    ['an unknown status', (r) => (r.rules[2].status = '<b>x</b>'), '$.rules[2].status: must be equal to one of the allowed values'],
    ['an unknown level', (r) => (r.rules[0].level = 'MAY'), '$.rules[0].level: must be equal to one of the allowed values'],
    [
      'an unknown test state',
      (r) => (r.rules[0].tests[0].state = 'passed'),
      '$.rules[0].tests[0].state: must be equal to one of the allowed values',
    ],
    ['a string duration', (r) => (r.rules[0].tests[0].duration_ms = '12'), '$.rules[0].tests[0].duration_ms: must be number'],
    ['an unknown evidence kind', (r) => r.rules[0].evidence.push({ kind: 'html', html: '<script>' }), '.kind: must be equal to one of the allowed values'],
    ['a field the schema does not name', (r) => (r.rules[1].onclick = 'x'), '$.rules[1].onclick: is not a field of this file'],
    ['a field on evidence the kind does not have', (r) => (r.rules.find((x: any) => x.evidence.length).evidence[0].html = 'x'), '.evidence[0].html: is not a field of this file'],
    ['a started_at that is no date', (r) => (r.started_at = 'yesterday'), '$.started_at: must match format "date-time"'],
    ['no rules', (r) => delete r.rules, "$: must have required property 'rules'"],
  ];

  it.each(cases)('%s', (_name, edit, problem) => {
    const r = clone();
    edit(r);
    const d = dirWith(r);
    expect(() => readReportFile(d)).toThrow(`report.json: ${join(d, 'report.json')} is not a valid report.json: `);
    expect(() => readReportFile(d)).toThrow(problem);
  });

  it('deep nesting (100 000 levels) is refused without walking it recursively', () => {
    const r = clone();
    r.rules[0]!.observed = { x: 'DEEP' };
    const text = JSON.stringify(r).replace('"DEEP"', `${'['.repeat(100_000)}1${']'.repeat(100_000)}`);
    expect(() => readReportFile(dirWith(text))).toThrow(/\$\.rules\[0\]\.observed\.x(\[0\])+: nested deeper than 64 levels/);
  });

  it('`report DIR` and `report --compare`: exit 2, one line on stderr naming file and path, no stack trace, nothing rendered', async () => {
    const bad = clone();
    (bad as any).rules[0].tests[0].duration_ms = '<img src=x onerror=alert(1)>';
    const badDir = dirWith(bad);
    const badCert = dirWith(clone(), { certification: 'yes' });
    const good = dirWith(clone());
    const bin = join(ROOT, 'bin', 'hps-conformance.mjs');
    const runs = [
      { args: ['report', badDir], file: join(badDir, 'report.json'), path: '$.rules[0].tests[0].duration_ms' },
      { args: ['report', '--compare', good, badDir, '--out', join(tmp, 'x.html')], file: join(badDir, 'report.json'), path: '$.rules[0].tests[0].duration_ms' },
      { args: ['report', badCert], file: join(badCert, 'certificate.json'), path: '$' },
      { args: ['report', dirWith('{"seed": 1, "rules": [')], file: 'report.json is not valid JSON at line 1', path: '' },
    ];
    for (const run of runs) {
      const r = await runChild(process.execPath, [bin, ...run.args], { cwd: ROOT, timeoutMs: 60_000 });
      expect(r.status, r.stderr).toBe(2);
      const lines = r.stderr.trim().split('\n');
      expect(lines, r.stderr).toHaveLength(1);
      expect(lines[0]).toContain(run.file);
      expect(lines[0]).toContain(run.path);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(readdirSync(badDir)).toEqual(['report.json']);
  }, 120_000);
});
