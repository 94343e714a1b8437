/**
 * What the runner hands every suite worker (through vitest's provide/inject):
 * the target profile and the run's parameters. Plain JSON only.
 */
import type { Profile } from './profile.ts';

export interface SuiteContextData {
  profile: Profile;
  /** Where the profile came from (for replay lines); null when the runner started the reference server. */
  profilePath: string | null;
  runId: string;
  seed: number;
  runs: number;
  /** Base URL of the webhook sink's query API, when the run has a sink. */
  sinkUrl: string | null;
  /** Bearer token of the sink's query API (private by default). */
  sinkToken?: string | null;
  /** Extra CLI words a replay line must carry (e.g. `--time-scale 600`). */
  replayArgs: string[];
  /** How the user started the tool (core/invocation.ts: `npx hps-conformance`, …): a replay line's first words. */
  command?: string;
  /** The ids of the rules this run selected (a rule may leave to another what that one does in the same run). */
  selectedRules?: string[];
  /** `run --case N|TITLE`: only this row of the rule's fixed tables runs, and no property (service/harness/worker/cases.ts). */
  caseFilter?: string;
  /** The suite as a model client: its pace per suite process (`--max-rps` split) and its throttle wait budget. */
  pace?: { maxRpsPerProcess?: number; waitBudgetMs?: number; outageBudgetMs?: number; concurrency?: number; outageFile?: string };
}

declare module 'vitest' {
  export interface ProvidedContext {
    hps: SuiteContextData;
    /** The run's target gate (core/target-gate.ts), shared memory across the suite workers. */
    hpsGate: SharedArrayBuffer | undefined;
    /** The run's turns at large answers (core/large-answers.ts), shared memory across the suite workers. */
    hpsLarge: SharedArrayBuffer | undefined;
  }
}

/** FNV-1a, 32 bit: a rule's seed is derived from the run seed and the rule id, so `--rule X --seed N` replays X exactly. */
export function deriveSeed(seed: number, label: string): number {
  let h = 0x811c9dc5 ^ (seed >>> 0);
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h | 0;
}
