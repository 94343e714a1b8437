/**
 * An interrupted run says what it did not reach, and keeps its exit status (issue "Honest at every
 * edge a user meets", item 1): the rules no test reached read "not reached (interrupted after N s)",
 * never "no test in this selection"; report.json records the signal and when (`interrupted`), and
 * `report DIR` on it exits 130 / 143 as the run did, saying why. Built with judgeRun (no run).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { selectRules } from '../../catalogue/index.ts';
import type { Interruption } from '../../catalogue/report/model.ts';
import { readReportFile } from '../../core/report-file.ts';
import type { FinishedTest } from '../../results/verdict/collect.ts';
import { judgeRun } from '../../results/verdict/judge-run.ts';
import { persistReport } from '../../results/verdict/persist-report.ts';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'hps-conformance.mjs');
const dir = mkdtempSync(join(tmpdir(), 'hps-interrupted-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const IDS = ['AUTH-MISSING-KEY', 'AUTH-MALFORMED-KEY', 'AUTH-REVOKED-KEY'];
const test = (rule: string, state: FinishedTest['state'], skipReason?: string): FinishedTest => ({
  title: `${rule}: t`, state, durationMs: 1, errors: [], meta: { checks: 1, requests: 1, ...(skipReason ? { skipReason } : {}) },
}) as unknown as FinishedTest;

function judged(interrupted?: Interruption) {
  return judgeRun({
    target: { base_url: 'http://127.0.0.1:1', embedded_reference: false },
    ctx: { runId: 'r1', seed: 1, runs: 100, replayArgs: [], profilePath: null },
    startedAt: new Date(), selected: selectRules({ rules: IDS }), selection: { areas: [], rules: IDS },
    // AUTH-MISSING-KEY ran; AUTH-REVOKED-KEY skipped itself with a reason; AUTH-MALFORMED-KEY was not reached.
    tests: [test('AUTH-MISSING-KEY', 'pass'), test('AUTH-REVOKED-KEY', 'skip', 'profile lacks keys.test_revoked')],
    secrets: [], pace: { maxRps: null, concurrency: 4 }, policy: {}, required: [],
    ...(interrupted ? { interrupted, partialReason: `interrupted by ${interrupted.signal} ${interrupted.after_s} s into the run` } : {}),
  } as never);
}

const reasonOf = (j: ReturnType<typeof judged>, id: string) => j.report.rules.find((r) => r.id === id)!.reason;

function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((res) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, HPS_DEBUG: '' }, timeout: 60_000 },
      (e, out, err) => res({ code: e ? ((e as { code?: number }).code ?? 1) : 0, out, err }));
  });
}

describe('an interrupted run', () => {
  it('the rules not reached say so, with when; a rule that said why it skipped keeps its reason; the console lines too', () => {
    const j = judged({ signal: 'SIGINT', after_s: 10.7 });
    expect(reasonOf(j, 'AUTH-MALFORMED-KEY')).toBe('not reached (interrupted after 10.7 s)');
    expect(reasonOf(j, 'AUTH-REVOKED-KEY')).toBe('profile lacks keys.test_revoked');
    expect(j.report.interrupted).toEqual({ signal: 'SIGINT', after_s: 10.7 });
    expect(JSON.stringify(j.report)).not.toContain('no test in this selection');
    expect(j.report.incomplete_because?.join('\n')).toContain('AUTH-MALFORMED-KEY not proven (SKIP): not reached (interrupted after 10.7 s)');
  });

  it('a run that was not interrupted still says "no test in this selection" and records no interruption', () => {
    const j = judged();
    expect(reasonOf(j, 'AUTH-MALFORMED-KEY')).toBe('no test in this selection');
    expect(j.report.interrupted).toBeUndefined();
  });

  for (const [signal, status] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    it(`report DIR on a run interrupted by ${signal}: exit ${status} and why, not the verdict's status`, async () => {
      const out = join(dir, signal);
      persistReport(out, judged({ signal, after_s: 3.2 }).report);
      expect(readReportFile(out).interrupted).toEqual({ signal, after_s: 3.2 }); // the schema takes it
      const r = await cli(['report', out]);
      expect(r.code, r.err).toBe(status);
      expect(r.out).toContain(`PARTIAL: the run was interrupted by ${signal} after 3.2 s`);
    }, 60_000);
  }
});
