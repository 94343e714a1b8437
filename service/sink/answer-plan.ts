/**
 * How a test tells the sink to answer: a marker in the Payment's `metadata.sink`, echoed in
 * `data.object.metadata.sink` of every payment event (see README.md beside this file).
 *
 *   marker   = fail / redirect / timeout / reset / ack / slow
 *   fail     = "fail:" status "x" count    ; answer <status> (300-599) to the first <count> attempts
 *   redirect = "redirect:" count           ; 302 to a recorded /_sink/redirect-target/<token>
 *   timeout  = "timeout:" count            ; hold the answer past the 10 s delivery time-out
 *   reset    = "reset:" count              ; destroy the connection without answering
 *   ack      = "ack:" status               ; acknowledge every attempt with <status> (200-299)
 *   slow     = "slow:" ms                  ; acknowledge every attempt with 200 after <ms> (1-9999): inside the 10 s time-out
 *   status   = 3DIGIT
 *   count    = %x31-39 0*2DIGIT            ; 1 to 999
 *
 * After the first <count> attempts of an event at an endpoint, attempts are answered 200.
 * No marker: 200. An unparsable marker: 200, and the problem is recorded with the delivery.
 */

export type AnswerPlan =
  | { kind: 'ack'; status: number }
  | { kind: 'fail'; status: number; count: number }
  | { kind: 'redirect'; count: number }
  | { kind: 'timeout'; count: number }
  | { kind: 'reset'; count: number }
  | { kind: 'slow'; holdMs: number };

export interface ParsedAnswerPlan {
  plan: AnswerPlan;
  /** Set when a marker was present but not understood; the plan is then a plain 200. */
  problem?: string;
}

/** What to do with one attempt. */
export type PlannedAnswer =
  | { kind: 'status'; status: number }
  | { kind: 'redirect' }
  | { kind: 'timeout' }
  | { kind: 'reset' }
  /** 200 after holdMs. */
  | { kind: 'slow'; holdMs: number };

export const DEFAULT_PLAN: AnswerPlan = { kind: 'ack', status: 200 };
const MAX_MARKER_LENGTH = 64;

const FAIL = /^fail:([0-9]{3})x([1-9][0-9]{0,2})$/;
const COUNTED = /^(redirect|timeout|reset):([1-9][0-9]{0,2})$/;
const ACK = /^ack:([0-9]{3})$/;
const SLOW = /^slow:([1-9][0-9]{0,3})$/;

/** Parses a `metadata.sink` value. `undefined`/`null` (no marker) is the default plan, not a problem. */
export function parseAnswerPlan(marker: unknown): ParsedAnswerPlan {
  if (marker === undefined || marker === null) return { plan: DEFAULT_PLAN };
  if (typeof marker !== 'string') return invalid(`marker is a ${typeof marker}, not a string`);
  if (marker.length > MAX_MARKER_LENGTH) return invalid(`marker longer than ${MAX_MARKER_LENGTH} characters`);

  const fail = FAIL.exec(marker);
  if (fail) {
    const status = Number(fail[1]);
    if (status < 300 || status > 599) return invalid(`fail status ${status} is not a 3xx, 4xx or 5xx`);
    return { plan: { kind: 'fail', status, count: Number(fail[2]) } };
  }
  const counted = COUNTED.exec(marker);
  if (counted) {
    const kind = counted[1] as 'redirect' | 'timeout' | 'reset';
    return { plan: { kind, count: Number(counted[2]) } };
  }
  const slow = SLOW.exec(marker);
  if (slow) return { plan: { kind: 'slow', holdMs: Number(slow[1]) } };
  const ack = ACK.exec(marker);
  if (ack) {
    const status = Number(ack[1]);
    if (status < 200 || status > 299) return invalid(`ack status ${status} is not a 2xx`);
    return { plan: { kind: 'ack', status } };
  }
  return invalid(`unknown marker ${JSON.stringify(marker)}`);
}

/** The answer to attempt number `attempt` (1-based) of one event at one endpoint. */
export function plannedAnswer(plan: AnswerPlan, attempt: number): PlannedAnswer {
  switch (plan.kind) {
    case 'ack':
      return { kind: 'status', status: plan.status };
    case 'slow':
      return { kind: 'slow', holdMs: plan.holdMs };
    case 'fail':
      return attempt <= plan.count ? { kind: 'status', status: plan.status } : { kind: 'status', status: 200 };
    case 'redirect':
    case 'timeout':
    case 'reset':
      return attempt <= plan.count ? { kind: plan.kind } : { kind: 'status', status: 200 };
  }
}

function invalid(problem: string): ParsedAnswerPlan {
  return { plan: DEFAULT_PLAN, problem };
}
