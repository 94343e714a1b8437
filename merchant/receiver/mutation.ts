/**
 * The receiver command's mutation score: every planted fault of the reference receiver, each
 * caught when at least one rule it declares fails (or warns, for a SHOULD rule); the clean
 * reference receiver must raise no FAIL, WARN or ERROR.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RECEIVER_FAULT_NAMES, receiverFaultOf } from './faults.ts';
import { startReferenceReceiver } from '../../references/receiver/server.ts';
import type { Report } from '../../catalogue/report/model.ts';
import { mapLimit } from '../../core/concurrency.ts';
import { runReceiver } from './run.ts';
import type { SidePolicy } from '../../results/verdict/side-policy.ts';
import { DEFAULT_DEDUP, type DedupPlan } from './redelivery.ts';
import { invokedAs } from '../../core/invocation.ts';

export interface ReceiverFaultResult {
  fault: string;
  expected: string[];
  caughtBy: string[];
  /** Every rule that did not pass (fail, warn, error). */
  broke: string[];
  caught: boolean;
}

export interface ReceiverMutationSummary {
  seed: number;
  results: ReceiverFaultResult[];
  caught: number;
  /** Rules the clean receiver did not pass (false alarms). */
  cleanFindings: string[];
}

/**
 * The mutation's redeliveries: the schedule's first three gaps at 1/60 (0, 0.5 s, 2 s), against a
 * reference receiver whose forgetting fault forgets at 1/60 of its minute too (1 s).
 */
export const MUTATION_DEDUP: DedupPlan = { attempts: 3, timeScale: 60 };

/** What the processing rules wait for: the redeliveries (default: the real schedule's) and the inspection's settling bound. */
export interface ProcessingOptions {
  dedup?: DedupPlan;
  settleTimeoutMs?: number;
  replay?: string;
}

/** One run of the receiver command against the embedded reference receiver (report in reportDir, default reports/runs/ID). */
export async function runAgainstReference(
  faults: string[],
  seed: number,
  reportDir?: string,
  log: (line: string) => void = () => {},
  policy?: SidePolicy,
  processing: ProcessingOptions = {},
): Promise<Report> {
  const secret = `whsec_${randomBytes(16).toString('hex')}`;
  const dedup = processing.dedup ?? DEFAULT_DEDUP;
  // The reference receiver's forgetting fault keeps its minute at the same scale as the schedule's gaps.
  const receiver = await startReferenceReceiver({ secret, faults, dedupForgetMs: 60_000 / dedup.timeScale });
  try {
    const { report } = await runReceiver({
      url: receiver.url, secret, inspectUrl: receiver.inspectUrl, seed, reportDir, embedded: true, log, policy, dedup,
      ...(processing.settleTimeoutMs !== undefined ? { settleTimeoutMs: processing.settleTimeoutMs } : {}),
      replayBase: `${invokedAs()} receiver${faults.map((f) => ` --fault ${f}`).join('')}${processing.replay ?? ''}`,
    });
    return report;
  } finally {
    await receiver.close();
  }
}

const broken = (r: Report) => r.rules.filter((x) => x.status === 'fail' || x.status === 'warn' || x.status === 'error').map((x) => x.id);

export async function receiverMutation(
  seed: number,
  onResult?: (r: ReceiverFaultResult) => void,
  jobs = 4,
): Promise<ReceiverMutationSummary> {
  const at = { dedup: MUTATION_DEDUP, replay: ` --dedup-time-scale ${MUTATION_DEDUP.timeScale}` };
  const clean = runAgainstReference([], seed, mkdtempSync(join(tmpdir(), 'hps-recv-')), undefined, undefined, at);
  const results = await mapLimit(RECEIVER_FAULT_NAMES, jobs, async (name): Promise<ReceiverFaultResult> => {
    const report = await runAgainstReference([name], seed, mkdtempSync(join(tmpdir(), 'hps-recv-')), undefined, undefined, at);
    const expected = [...receiverFaultOf(name).breaks] as string[];
    const broke = broken(report);
    const caughtBy = expected.filter((id) => broke.includes(id));
    const r = { fault: name, expected, caughtBy, broke, caught: caughtBy.length > 0 };
    onResult?.(r);
    return r;
  });
  return { seed, results, caught: results.filter((r) => r.caught).length, cleanFindings: broken(await clean) };
}
