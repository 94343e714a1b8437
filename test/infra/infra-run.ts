/**
 * What the infrastructure runs share: a fresh reference per run, the run's one-line summary and
 * the conformance expectations. Seed: HPS_INFRA_SEED (default 1).
 */
import { expect } from 'vitest';
import { startReference, type RunningReference } from '../../references/service/index.ts';
import { EMBEDDED_TIME_SCALE, freePort } from '../../service/harness/main/embedded.ts';
import type { SuiteRun } from './run-suite.ts';

export const SEED = Number(process.env.HPS_INFRA_SEED ?? 1);
export const RUN_TIMEOUT_MS = 240_000;

/** A fresh reference (fresh state per run) whose webhooks go to a port the run's sink will take. */
export async function freshReference(): Promise<RunningReference> {
  const sinkPort = await freePort();
  return startReference({ webhookBaseUrl: `http://127.0.0.1:${sinkPort}`, timeScale: EMBEDDED_TIME_SCALE });
}

export function describeRun(where: string, run: SuiteRun): string {
  const s = run.summary;
  return `${where}: exit ${run.exitCode}, ${run.verdict}, ${(run.wallMs / 1000).toFixed(1)} s wall, pass ${s.pass} fail ${s.fail} warn ${s.warn} error ${s.error} flaky ${s.flaky} skip ${s.skip}${run.problems.length ? `\n  ${run.problems.join('\n  ')}` : ''}`;
}

export function expectConformant(run: SuiteRun): void {
  expect(run.problems, run.outputTail.split('\n').slice(-12).join('\n')).toEqual([]);
  expect(run.summary.fail).toBe(0);
  expect(run.summary.warn).toBe(0);
  expect(run.summary.error).toBe(0);
  expect(run.summary.pass).toBeGreaterThan(100);
  expect(run.verdict).toBe('conformant');
  expect(run.exitCode).toBe(0);
}
