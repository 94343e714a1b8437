/**
 * One titled case per row, addressable (issue 22). runCases itself: every row runs, each keeps its
 * own outcome, the first failing row (in table order) fails the rule. Through `run`: a planted
 * fault that accepts amounts with three decimals fails exactly those rows of CREATE-AMOUNT-INVALID
 * (the other 21 pass), report.json lists them under the rule and validates against its closed
 * schema, the replay line names the failing case, and `--case N` / `--case TITLE` run that row
 * alone (one request). `--dry-run --cases` lists the rows; a case the rule lacks is exit 2.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CaseTable } from '../../catalogue/case-table.ts';
import type { HpsMeta } from '../../core/evidence.ts';
import { TransportError } from '../../core/client.ts';
import { readReportFile } from '../../core/report-file.ts';
import { casesOfRule, INVALID_AMOUNT_CASES } from '../../service/generators/index.ts';
import { runCases } from '../../service/harness/worker/cases.ts';
import { transportCause } from '../../service/harness/worker/rule-errors.ts';
import { run } from '../../service/harness/main/run.ts';
import { runChild } from '../support/run-child.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'hps-conformance.mjs');
const TMP = mkdtempSync(join(tmpdir(), 'hps-cases-'));

const LETTERS: CaseTable<string> = {
  rule: 'CREATE-AMOUNT-INVALID',
  name: 'letters',
  rows: () => ['a', 'b', 'c', 'd'],
  title: (v) => `letter ${v} holds`,
};
/** Numbered on after LETTERS (5..8), whichever test runs it and in whatever order. */
const MORE_LETTERS: CaseTable<string> = { ...LETTERS, name: 'more letters', after: LETTERS };

function caseRun(filter?: string) {
  const meta: HpsMeta = { rule: 'CREATE-AMOUNT-INVALID' };
  return { meta, r: { meta, env: { testKey: 'pt_test_sk_x' }, filter, isTransport: (e: unknown) => !!transportCause(e) } };
}

describe('runCases', () => {
  it('runs every row, records each outcome, and fails with the first failing row (table order)', async () => {
    const { meta, r } = caseRun();
    const ran: string[] = [];
    const err = await runCases(r, LETTERS, async (v) => {
      ran.push(v);
      if (v === 'b' || v === 'd') throw new Error(`${v} broke`);
    }).then(() => new Error("no failure"), (e: unknown) => e as Error);
    expect(ran.sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(err.message).toBe('case 2 (letter b holds): b broke (1 more case(s) failed too)');
    expect(meta.fixedCases).toEqual([
      { n: 1, title: 'letter a holds', status: 'pass' },
      { n: 2, title: 'letter b holds', status: 'fail', reason: 'b broke' },
      { n: 3, title: 'letter c holds', status: 'pass' },
      { n: 4, title: 'letter d holds', status: 'fail', reason: 'd broke' },
    ]);
  });

  it('a row whose check returns { notTried } is skip with its reason, never pass, and fails nothing', async () => {
    const { meta, r } = caseRun();
    await runCases(r, LETTERS, async (v) => (v === 'c' ? { notTried: 'the profile has no c' } : undefined));
    expect(meta.fixedCases).toEqual([
      { n: 1, title: 'letter a holds', status: 'pass' },
      { n: 2, title: 'letter b holds', status: 'pass' },
      { n: 3, title: 'letter c holds', status: 'skip', reason: 'the profile has no c' },
      { n: 4, title: 'letter d holds', status: 'pass' },
    ]);
  });

  it('a table numbers on after the one it names; a filter runs one row; transport trouble is error, not fail', async () => {
    const { meta, r } = caseRun('6');
    const ran: string[] = [];
    await runCases(r, LETTERS, async (v) => void ran.push(v));
    const err = await runCases(r, MORE_LETTERS, async (v) => {
      ran.push(v);
      throw new TransportError('HPS_ERR_TARGET_UNREACHABLE' as never, 'refused');
    }).catch((e: unknown) => e);
    expect(ran).toEqual(['b']);
    expect(err).toBeInstanceOf(TransportError);
    expect(meta.fixedCases).toEqual([{ n: 6, title: 'letter b holds', status: 'error', reason: expect.stringContaining('refused') }]);
  });

  it('the numbers are the table\'s own: run first, or alone in another test, MORE_LETTERS is still 5..8', async () => {
    const { meta, r } = caseRun();
    await runCases(r, MORE_LETTERS, async () => {});
    expect(meta.fixedCases!.map((c) => c.n)).toEqual([5, 6, 7, 8]);
  });
});

describe('fixed cases through a run', () => {
  it('a fault accepting three decimals fails exactly those rows; the others pass; the replay names the case', async () => {
    const reportDir = join(TMP, 'fault');
    const result = await run({
      rules: ['CREATE-AMOUNT-INVALID'],
      faults: ['amount-three-decimals-accepted'],
      seed: 1,
      runs: 10,
      reportDir,
      log: () => {},
    });
    const rule = result.report.rules.find((r) => r.id === 'CREATE-AMOUNT-INVALID')!;
    expect(rule.status).toBe('fail');
    const listed = casesOfRule('CREATE-AMOUNT-INVALID', { testKey: 'pt_test_sk_x' });
    expect(rule.cases!.map((c) => ({ n: c.n, title: c.title }))).toEqual(listed);
    const failing = rule.cases!.filter((c) => c.status !== 'pass').map((c) => `${c.n} ${c.status} ${c.title}`);
    expect(failing).toEqual([
      '6 fail amount "1.005" is rejected with 400 invalid_amount',
      '8 fail amount "10.999" is rejected with 400 invalid_amount',
    ]);
    expect(rule.cases!.filter((c) => c.status === 'pass')).toHaveLength(21);
    expect(rule.reason).toMatch(/^case 6 \(amount "1\.005"/);
    const replays = rule.evidence.flatMap((e) => (e.kind === 'replay' ? [e.command] : []));
    // A replay line starts as the tool was started (core/invocation.ts): npx, the installed command or node FILE.
    expect(replays.some((c) => /^(?:npx hps-conformance|hps-conformance|node \S*hps-conformance\.mjs) run --rule CREATE-AMOUNT-INVALID --case 6 --seed=1 --runs 10 --fault amount-three-decimals-accepted$/
      .test(c)), replays.join('\n')).toBe(true);
    expect(() => readReportFile(reportDir)).not.toThrow(); // the closed schema knows rules[].cases
  }, 120_000);

  it('--case N runs that row alone (one request), --case TITLE too', async () => {
    const one = await run({
      rules: ['CREATE-AMOUNT-INVALID'],
      faults: ['amount-three-decimals-accepted'],
      seed: 1,
      runs: 10,
      caseFilter: '6',
      persist: false,
      log: () => {},
    });
    const rule = one.report.rules[0]!;
    expect(rule.status).toBe('fail');
    expect(rule.cases).toEqual([expect.objectContaining({ n: 6, status: 'fail' })]);
    expect(one.report.requests).toBe(1);
    const title = INVALID_AMOUNT_CASES.title('0.00', 1);
    const byTitle = await run({ rules: ['CREATE-AMOUNT-INVALID'], seed: 1, runs: 10, caseFilter: title, persist: false, log: () => {} });
    expect(byTitle.report.rules[0]!.status).toBe('pass');
    expect(byTitle.report.rules[0]!.cases).toEqual([{ n: 2, title, status: 'pass' }]);
    expect(byTitle.report.requests).toBe(1);
  }, 120_000);
});

describe('a rule whose tables are spread over several tests', () => {
  it('LIST-FILTER-STRICT: a row of its third table keeps the number `--dry-run --cases` gives it, and runs alone', async () => {
    const listed = casesOfRule('LIST-FILTER-STRICT', { testKey: 'pt_test_sk_x' });
    const row = listed.find((c) => c.title.startsWith('created_to="2024-13-01'))!;
    expect(row.n).toBeGreaterThan(12); // numbered after the unknown statuses and the near misses
    const one = await run({ rules: ['LIST-FILTER-STRICT'], seed: 1, runs: 10, caseFilter: String(row.n), persist: false, log: () => {} });
    const rule = one.report.rules[0]!;
    expect(rule.status).toBe('pass');
    expect(rule.cases).toEqual([{ n: row.n, title: row.title, status: 'pass' }]);
  }, 120_000);
});

// Child processes only, each its own report directory (or none): side by side.
describe.concurrent('the command line', () => {
  it('a failing run prints the replay line of its first failing case (--case N), beside the rule\'s own', async () => {
    const r = await runChild(
      process.execPath,
      [
        BIN,
        'run',
        '--rule',
        'CREATE-AMOUNT-INVALID',
        '--fault',
        'amount-three-decimals-accepted',
        '--seed',
        '1',
        '--runs',
        '10',
        '--no-progress',
        '--report',
        join(TMP, 'printed'),
      ],
      { timeoutMs: 90_000 },
    );
    expect(r.status, r.stderr).toBe(1);
    const out = `${r.stdout}\n${r.stderr}`;
    expect(out).toMatch(/^\s+replay: (?:npx hps-conformance|hps-conformance|node \S*hps-conformance\.mjs) run --rule CREATE-AMOUNT-INVALID --seed=1 --runs 10 --fault amount-three-decimals-accepted$/m);
    expect(out).toMatch(/^\s+replay the case alone: (?:npx hps-conformance|hps-conformance|node \S*hps-conformance\.mjs) run --rule CREATE-AMOUNT-INVALID --case 6 --seed=1 --runs 10 --fault amount-three-decimals-accepted$/m);
  }, 120_000);

  it('--dry-run --cases lists every rule\'s rows, numbered and titled', async () => {
    const r = await runChild(process.execPath, [BIN, 'run', '--dry-run', '--cases', '--area', 'create'], { timeoutMs: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('CREATE-AMOUNT-INVALID (23 fixed cases)');
    expect(r.stdout).toMatch(/^\s+6 {2}amount "1\.005" is rejected with 400 invalid_amount$/m);
    expect(r.stdout).not.toContain('AUTH-MALFORMED-KEY'); // the selection holds
    expect(r.stdout).not.toContain('pt_test_sk_'); // no key in a title
  }, 90_000);

  it('a case the rule lacks, or --case without exactly one --rule, is exit 2 with one line', async () => {
    const cases = [
      ['--rule', 'CREATE-AMOUNT-INVALID', '--case', '24'],
      ['--case', '1'],
      ['--rule', 'AUTH-CHECK-ORDER', '--case', '1'],
      ['--cases'],
    ];
    const results = await Promise.all(cases.map((args) => runChild(process.execPath, [BIN, 'run', ...args], { timeoutMs: 60_000 })));
    for (const [i, args] of cases.entries()) {
      const r = results[i]!;
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  }, 120_000);
});
