/**
 * RECV-DEDUPLICATE over the retry schedule's own gaps, and an inspection read until it settles.
 * A receiver that deduplicates for a minute only passed when the duplicate came right after the
 * first delivery; redelivered at the schedule's gaps (here at 1/60 of their length, against a
 * receiver forgetting after 1 s) it is caught, and the PASS of a correct receiver states the
 * window proven against the schedule's length. A receiver still processing when the bound
 * passes is SKIP "not settled yet (waited N s)", never a FAIL or "not processed at all".
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MUTATION_DEDUP } from '../../merchant/receiver/mutation.ts';
import { DEFAULT_DEDUP, redeliveryGaps, windowStatement, type DedupPlan } from '../../merchant/receiver/redelivery.ts';
import { runReceiver, type ReceiverRunOptions } from '../../merchant/receiver/run.ts';
import { notCertificationReason } from '../../results/verdict/certificate.ts';
import { startReferenceReceiver, type ReferenceReceiverOptions } from '../../references/receiver/server.ts';

const SECRET = 'whsec_test_windows_0123456789abcdef';

async function certify(receiver: Partial<ReferenceReceiverOptions>, run: Partial<ReceiverRunOptions>) {
  const r = await startReferenceReceiver({ secret: SECRET, ...receiver });
  try {
    const { report } = await runReceiver({
      url: r.url,
      secret: SECRET,
      inspectUrl: r.inspectUrl,
      seed: 9,
      reportDir: mkdtempSync(join(tmpdir(), 'hps-recv-win-')),
      replayBase: 'x',
      log: () => {},
      ...run,
    });
    return report;
  } finally {
    await r.close();
  }
}

const rule = (report: Awaited<ReturnType<typeof certify>>, id: string) => report.rules.find((x) => x.id === id)!;

describe('RECV-DEDUPLICATE along the retry schedule', () => {
  it('states the default window against the schedule: the immediate retry, then 30 s and 2 min after the previous attempt', () => {
    expect(redeliveryGaps(DEFAULT_DEDUP)).toEqual([0, 30_000, 120_000]);
    expect(windowStatement(DEFAULT_DEDUP)).toBe("proved for 2 min 30 s of the schedule's 8 h 42 min 30 s (redelivered immediately, 30 s, 2 min, each after the previous attempt)");
    expect(windowStatement({ attempts: 7, timeScale: 1 })).toBe("proved for 8 h 42 min 30 s of the schedule's 8 h 42 min 30 s (redelivered immediately, 30 s, 2 min, 10 min, 30 min, 2 h, 6 h, each after the previous attempt)");
    expect(windowStatement(MUTATION_DEDUP)).toMatch(/^proved for 2\.5 s only: the schedule's gaps at 1\/60 of their length \(--dedup-time-scale 60\), 2 min 30 s of the schedule's 8 h 42 min 30 s/);
  });

  it('a receiver that forgets event ids passes the immediate retry alone (the old check), and is caught at the schedule\'s gaps', async () => {
    const immediate: DedupPlan = { attempts: 1, timeScale: 1 };
    const before = await certify({ faults: ['dedups-for-a-minute-only'] }, { dedup: immediate });
    expect(rule(before, 'RECV-DEDUPLICATE').status).toBe('pass');
    const after = await certify({ faults: ['dedups-for-a-minute-only'], dedupForgetMs: 1000 }, { dedup: MUTATION_DEDUP });
    const d = rule(after, 'RECV-DEDUPLICATE');
    expect(d.status).toBe('fail');
    expect(JSON.stringify(d.evidence)).toMatch(/delivered 4 times \(retry 1 immediately; retry 2 500 ms after the previous attempt; retry 3 2 s after the previous attempt\) was processed 2 times/);
    // Only that rule: the forgetting fault breaks nothing else.
    expect(after.rules.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual(['RECV-DEDUPLICATE']);
  }, 60_000);

  it("a correct receiver's PASS states the window proven and the schedule's length", async () => {
    const report = await certify({}, { dedup: MUTATION_DEDUP });
    const d = rule(report, 'RECV-DEDUPLICATE');
    expect(d.status).toBe('pass');
    expect(d.observed).toMatchObject({ redeliveries: 3, window: windowStatement(MUTATION_DEDUP), dedup_time_scale: 60 });
    expect(JSON.stringify(d.evidence)).toContain(`deduplication ${windowStatement(MUTATION_DEDUP)}`);
    // Conformant, but a rehearsal: the schedule was shortened, so nothing is certified.
    expect(report.verdict).toBe('conformant');
    expect(notCertificationReason(report)).toBe('--dedup-time-scale 60: deduplication proven over the retry schedule shortened 60 times (a rehearsal)');
    expect(notCertificationReason({
      ...report,
      rules: report.rules.map((r) => (r.id === 'RECV-DEDUPLICATE' ? { ...r, observed: { ...r.observed, dedup_time_scale: 1 } } : r)),
    })).toBeUndefined();
  }, 60_000);
});

describe('the inspection, read until it settles', () => {
  it('a receiver still processing when the bound passes: its processing rules are SKIP "not settled yet (waited N s)", none FAIL', async () => {
    const report = await certify({ processDelayMs: 6_000 }, { dedup: { attempts: 1, timeScale: 1 }, settleTimeoutMs: 1_000 });
    for (const id of ['RECV-DEDUPLICATE', 'RECV-ARRIVAL-ORDER']) {
      const r = rule(report, id);
      expect(r.status, id).toBe('skip');
      expect(
        r.reason,
        id,
      ).toMatch(/^not settled yet \(waited \d+ s\): the inspection still changed, or did not list every event delivered/);
    }
    expect(report.rules.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([]);
  }, 60_000);

  it('the same receiver, given the time, settles and passes', async () => {
    const report = await certify({ processDelayMs: 1_500 }, { dedup: { attempts: 1, timeScale: 1 }, settleTimeoutMs: 30_000 });
    expect(report.rules.filter((r) => [
      'fail',
      'skip',
      'error',
    ].includes(r.status) && !r.untestable).map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
  }, 60_000);
});
