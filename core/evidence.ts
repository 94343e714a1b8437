/**
 * What a test leaves in vitest's task.meta for the runner: evidence of
 * failures, observations, skip reasons and ambient violations. JSON only.
 */
import type { NotTried, TimelineEvidence } from '../catalogue/report/model.ts';
import type { ClientStats, Exchange } from './client.ts';

/** A request a test's setup needed, refused by the target: which request (never a key), and the answer. */
export interface SetupRefusal {
  request: string;
  status: number;
  code: string | null;
  /**
   * The spec lets the service refuse this (a Live create while the business is not ready or has no
   * Service Credit: a Live-only 409): the profile's promise for its Live key did not hold, and the
   * rules it blocked are not proven, not failed. Absent: a refusal nothing in the spec allows.
   */
  allowed?: string;
}

/** The Live-only 409 codes of the error table: a Live business not ready, or without Service Credit. */
export const LIVE_READINESS_CODES: ReadonlySet<string> = new Set([
  'payment_method_unavailable', 'payment_channel_unavailable', 'payment_detection_not_ready', 'insufficient_credit',
]);

/** Why the spec allows `refusal` of a setup create under a key of `liveMode`, or undefined when nothing does. */
export function allowedRefusal(liveMode: boolean, status: number, code: string | null): string | undefined {
  if (!liveMode || status !== 409 || code === null || !LIVE_READINESS_CODES.has(code)) return undefined;
  return `${code} is the spec's Live-only answer for a business that is not ready or has no Service Credit: ` +
    "the profile says keys.live's business is ready and has credit";
}

export interface Finding {
  /** Which rule this finding speaks for (ambient checks speak for rules other than the test's). */
  rule: string;
  message: string;
  expected?: unknown;
  actual?: unknown;
  exchange?: Exchange;
  /** The rule and test whose traffic produced the exchange (ambient findings): their replay reproduces it. */
  source?: { rule: string; test: string };
}

/** What a probe outside ordinary HTTP got back (observed, never judged by ambient rules). */
export interface OutsideHttpAnswer {
  reason: string;
  request: string;
  status: number | null;
  content_type: string | null;
  /** Who visibly answered: the service (a JSON Error envelope) or something in front of it. */
  answered_by: 'service' | 'infrastructure' | 'unknown' | 'no answer';
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
  /** fast-check's shrink count for this counterexample. */
  shrinks?: number;
  /** Why it was not (or only partly) shrunk (PropertyOptions.shrinkNote), printed in the report. */
  shrink_note?: string;
}

/** One row of a fixed case table (service/harness/worker/cases.ts): its number and title within the rule, how it ended. */
export interface CaseOutcome {
  n: number;
  title: string;
  /** `error`: transport trouble, not a verdict on the row; `skip`: the row could not be tried (reason says why). */
  status: 'pass' | 'fail' | 'error' | 'skip';
  reason?: string;
}

export interface HpsMeta {
  rule: string;
  skipReason?: string;
  observed?: Record<string, unknown>;
  notes?: string[];
  /** Obligations of the rule's clauses this test did not try (RuleContext.notTried), and why. */
  notTried?: NotTried[];
  property?: PropertyFailure;
  mismatch?: { expected?: unknown; actual?: unknown };
  transcript?: Exchange[];
  /** The exchange the failing check judged (Mismatch.exchange). */
  failedExchange?: Exchange;
  ambient?: Finding[];
  requests?: number;
  transport?: string;
  /** Checks the test made itself (verifiers and t.checked). */
  checks?: number;
  /** Generated cases its properties ran (fast-check runs, summed over the test's properties; service/harness/worker/depth.ts). */
  cases?: number;
  /** The rows of the test's fixed case tables that ran, each with its outcome (t.cases). */
  fixedCases?: CaseOutcome[];
  /** Ambient rules evaluated on this test's answers, with counts. */
  ambientChecked?: Record<string, number>;
  outsideHttp?: OutsideHttpAnswer[];
  /** The test's setup needed a request the target refused (service/harness/worker/expect.ts SetupRefused): the rule is blocked by it. */
  setupRefusal?: SetupRefusal;
  /** The test ran out of time (vitest) or the client's circuit breaker was open: not a verdict. */
  incomplete?: string;
  /** Webhook delivery timelines (catalogue/report/timeline.ts), reported when the test fails. */
  timelines?: TimelineEvidence[];
  /** What the test's requests cost as a model client: 429s waited out, pace, outages, retries. */
  client?: ClientStats;
  /** Why the test ran a second time (its first attempt met a transport failure). */
  rerun?: string;
  /** When the test's (last) attempt began, epoch ms; a measure for `npm run bench:conformance`. */
  startedAt?: number;
  /** Of its duration, the time it spent waiting (sleeps, a shared scenario's result; service/harness/worker/wait-clock.ts). */
  waitedMs?: number;
}

declare module '@vitest/runner' {
  interface TaskMeta {
    hps?: HpsMeta;
  }
}
