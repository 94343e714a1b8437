/**
 * What a test leaves in vitest's task.meta for the runner: evidence of
 * failures, observations, skip reasons and ambient violations. JSON only.
 */
import type { Exchange } from './client.ts';

export interface Finding {
  /** Which rule this finding speaks for (ambient checks speak for rules other than the test's). */
  rule: string;
  message: string;
  expected?: unknown;
  actual?: unknown;
  exchange?: Exchange;
}

export interface PropertyFailure {
  seed: number;
  runs: number;
  path?: string;
  counterexample: string;
  replay: string;
  /** The same seed replayed once more: 'fail' confirms, 'pass' makes the rule FLAKY. */
  replayOutcome: 'fail' | 'pass' | 'not-replayed';
  replayError?: string;
}

export interface HpsMeta {
  rule: string;
  skipReason?: string;
  observed?: Record<string, unknown>;
  notes?: string[];
  property?: PropertyFailure;
  mismatch?: { expected?: unknown; actual?: unknown };
  transcript?: Exchange[];
  ambient?: Finding[];
  requests?: number;
  transport?: string;
}

declare module '@vitest/runner' {
  interface TaskMeta {
    hps?: HpsMeta;
  }
}
