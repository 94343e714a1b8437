/**
 * The errors a rule's test ends with that are not a verdict on the target (skipped, out of time),
 * and the transport cause behind any error.
 */
import { TransportError } from '../../../core/client.ts';
import type { ErrorCode } from '../../../core/error-codes.ts';

/** The rule cannot run (the profile lacks what it needs): SKIP. */
export class SkipRule extends Error {
  readonly code = 'HPS_RULE_SKIPPED' satisfies ErrorCode;
}

/** Thrown when a rule's test runs past its time limit: the rule could not be decided (ERROR). */
export class RuleTimeout extends Error {
  readonly code = 'HPS_RULE_TIMEOUT' satisfies ErrorCode;
}

/** A transport error, also when fast-check or a helper wrapped it. */
export function transportCause(e: unknown): TransportError | undefined {
  for (let cur: unknown = e, depth = 0; cur && depth < 5; depth++) {
    if (cur instanceof TransportError) return cur;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}
