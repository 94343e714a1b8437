/**
 * The client command's mutation score: the example client (references/client/) with each planted
 * fault, caught when at least one rule it declares fails (or warns, for a SHOULD rule); the clean
 * example client must raise no FAIL, WARN or ERROR.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLIENT_FAULT_NAMES, clientFaultOf } from './faults.ts';
import { mapLimit } from '../../core/concurrency.ts';
import { PACKAGE_ROOT } from '../../core/package-root.ts';
import type { Report } from '../../catalogue/report/model.ts';
import { runClient } from './run.ts';

/** The example merchant's command, run from the package root. */
export const EXAMPLE_CLIENT_COMMAND = 'node --import tsx references/client/scenario.ts';

export interface ClientFaultResult {
  fault: string;
  expected: string[];
  caughtBy: string[];
  broke: string[];
  caught: boolean;
}

export async function runExampleClient(fault: string | undefined, seed: number): Promise<Report> {
  const { report } = await runClient({
    command: EXAMPLE_CLIENT_COMMAND, seed, cwd: PACKAGE_ROOT, log: () => {}, timeoutMs: 60_000,
    reportDir: mkdtempSync(join(tmpdir(), 'hps-client-')), env: fault ? { HPS_CLIENT_FAULT: fault } : {},
  });
  return report;
}

const broken = (r: Report) => r.rules.filter((x) => x.status === 'fail' || x.status === 'warn' || x.status === 'error').map((x) => x.id);

export async function clientMutation(
  seed: number,
  onResult?: (r: ClientFaultResult) => void,
  jobs = 3,
): Promise<{ results: ClientFaultResult[]; caught: number; cleanFindings: string[] }> {
  const clean = runExampleClient(undefined, seed);
  const results = await mapLimit(CLIENT_FAULT_NAMES, jobs, async (name): Promise<ClientFaultResult> => {
    const broke = broken(await runExampleClient(name, seed));
    const expected = [...clientFaultOf(name).breaks] as string[];
    const caughtBy = expected.filter((id) => broke.includes(id));
    const r = { fault: name, expected, caughtBy, broke, caught: caughtBy.length > 0 };
    onResult?.(r);
    return r;
  });
  return { results, caught: results.filter((r) => r.caught).length, cleanFindings: broken(await clean) };
}
