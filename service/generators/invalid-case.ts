/**
 * The contract every generator of `service/generators/` honours.
 *
 * - A negative generator yields an {@link InvalidCase}: the value, the catalogue rule it breaks and
 *   every 400 code the spec lets a target answer for it (oracle principle 1: where two codes both
 *   match, or a request breaks two rules at once, any of them is accepted).
 * - A borderline generator yields a {@link BorderlineCase}: no expected code, the suite only observes
 *   what the target does (oracle principle 2).
 */
import type { ErrorCode } from '../../catalogue/error-codes.ts';
import { RULES } from '../../catalogue/rules.ts';

/** The catalogue entries of the createPayment rules a generator breaks (those with `invalidInput`). */
type NegativeCreateRule = Extract<(typeof RULES)[number], { readonly invalidInput: 'field' | 'body' }>;

export type CreateRuleId = NegativeCreateRule['id'];

/** The rules one field of an otherwise valid body can break (`invalidInput: 'field'`). */
export type SingleFieldRuleId = Extract<NegativeCreateRule, { readonly invalidInput: 'field' }>['id'];

/** The catalogue ids of the createPayment validation rules, in catalogue order (derived, never listed by hand). */
export const CREATE_RULE_IDS: readonly CreateRuleId[] = RULES.flatMap((r) => ('invalidInput' in r ? [r.id as CreateRuleId] : []));

/** The single-field ones among them, in catalogue order. */
export const SINGLE_FIELD_RULE_IDS: readonly SingleFieldRuleId[] = RULES.flatMap((r) =>
  'invalidInput' in r && r.invalidInput === 'field' ? [r.id as SingleFieldRuleId] : [],
);

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
