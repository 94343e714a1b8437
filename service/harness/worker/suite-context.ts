/** The run's context in a suite worker: the target profile and pace the runner provides, entered once per run. */
import { inject } from 'vitest';
import { configureBackPressure } from '../../../core/back-pressure.ts';
import { shareOutagesThrough } from '../../../core/circuit.ts';
import type { SuiteContextData } from '../../../core/run-context.ts';
import { useTargetGate } from '../../../core/target-gate.ts';
import { useLargeAnswerTurns } from '../../../core/large-answers.ts';
import { enterRun } from './run-scoped.ts';

export function suiteContext(): SuiteContextData {
  const ctx = inject('hps');
  if (!ctx) throw new Error('hps-conformance suites run through `hps-conformance run`, which provides the target profile');
  if (enterRun(ctx.runId)) {
    configureBackPressure({ maxRps: ctx.pace?.maxRpsPerProcess, waitBudgetMs: ctx.pace?.waitBudgetMs });
    shareOutagesThrough(ctx.pace?.outageFile);
    useTargetGate(inject('hpsGate'));
    useLargeAnswerTurns(inject('hpsLarge'));
  }
  return ctx;
}
