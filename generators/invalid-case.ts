/**
 * The contract every generator of `generators/` honours.
 *
 * - A negative generator yields an {@link InvalidCase}: the value, the catalogue rule it breaks and
 *   every 400 code the spec lets a target answer for it (oracle principle 1: where two codes both
 *   match, or a request breaks two rules at once, any of them is accepted).
 * - A borderline generator yields a {@link BorderlineCase}: no expected code, the suite only observes
 *   what the target does (oracle principle 2).
 */
import type { ErrorCode } from '../catalogue/error-codes.ts';
import type { RuleId } from '../catalogue/rules.ts';

/** The catalogue ids of the createPayment validation rules (the catalogue uses the same ids). */
export const CREATE_RULE_IDS = [
  'CREATE-AMOUNT-INVALID',
  'CREATE-AMOUNT-NOT-STRING',
  'CREATE-AMOUNT-MISSING',
  'CREATE-RETURN-URL-FORBIDDEN-SCHEME',
  'CREATE-RETURN-URL-NOT-HTTPS',
  'CREATE-METADATA-TOO-MANY-KEYS',
  'CREATE-METADATA-KEY-TOO-LONG',
  'CREATE-METADATA-VALUE-TOO-LONG',
  'CREATE-METADATA-NOT-STRINGS',
  'CREATE-ALLOWED-METHODS-INVALID',
  'CREATE-ALLOWED-CHANNELS-INVALID',
  'CREATE-CONTEXT-ITEMS-REJECTED',
  'CREATE-WRONG-TYPE',
  'CREATE-MALFORMED-JSON',
  'CREATE-BODY-NOT-OBJECT',
  'CREATE-MULTI-VIOLATION',
] as const satisfies readonly RuleId[]; // a typo against the catalogue does not compile

export type CreateRuleId = (typeof CREATE_RULE_IDS)[number];

export interface InvalidCase<T = unknown> {
  /** The offending field value, or a whole request body / raw request. */
  value: T;
  /** The catalogue rule the value breaks. */
  breaks: CreateRuleId;
  /** Every 400 code the spec lets a target answer for it (at least one). */
  codes: readonly ErrorCode[];
  /** One line: what is wrong with it, for evidence. */
  why: string;
}

/** An input the spec does not clearly rule on: the suite sends it and records what happens. */
export interface BorderlineCase<T = unknown> {
  value: T;
  /** One line: why it is borderline (what the spec leaves open). */
  why: string;
}

/** The codes of two or more cases, each once, in first-seen order. */
export function unionCodes(...lists: ReadonlyArray<readonly ErrorCode[]>): ErrorCode[] {
  const out: ErrorCode[] = [];
  for (const list of lists) for (const code of list) if (!out.includes(code)) out.push(code);
  return out;
}
