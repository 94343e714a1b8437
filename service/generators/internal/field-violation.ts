/**
 * One field of a createPayment body made invalid, for invalidCreateRequest and
 * multiViolationRequest. Not part of the public surface.
 *
 * Every single-field rule of the catalogue (`invalidInput: 'field'`) is broken by the generator file
 * that exports its entry in `FIELD_RULES` (service/generators/internal/field-rule.ts): where it can be broken
 * and how, beside the generator that breaks it. This record gathers them; a rule without an entry
 * does not compile.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { FIELD_RULES as AMOUNT_NOT_STRING } from '../amount-not-string.ts';
import { FIELD_RULES as CONTEXT_ITEMS } from '../context-items.ts';
import { FIELD_RULES as ALLOWED_CHANNELS } from '../invalid-allowed-channels.ts';
import { FIELD_RULES as ALLOWED_METHODS } from '../invalid-allowed-methods.ts';
import { FIELD_RULES as AMOUNT } from '../invalid-amount.ts';
import { SINGLE_FIELD_RULE_IDS, type SingleFieldRuleId } from '../invalid-case.ts';
import { FIELD_RULES as METADATA } from '../invalid-metadata.ts';
import { FIELD_RULES as RETURN_URL } from '../invalid-return-url.ts';
import type { RunMarker } from '../valid-create-request.ts';
import { FIELD_RULES as WRONG_TYPE } from '../wrong-type-field.ts';
import type { FieldRules, FieldViolation, Slot, ViolationsOf } from './field-rule.ts';

export { SLOTS, type FieldViolation, type Slot } from './field-rule.ts';

/** Each generator file's rules (the oracle of service/generators/internal/body-oracle.ts reads them in this order). */
export const FIELD_RULE_FILES = [
  AMOUNT,
  AMOUNT_NOT_STRING,
  RETURN_URL,
  METADATA,
  ALLOWED_METHODS,
  ALLOWED_CHANNELS,
  CONTEXT_ITEMS,
  WRONG_TYPE,
] as const;

/** The rules some file registers. */
type RulesOf<F> = F extends FieldRules<infer R> ? R : never;
type Registered = RulesOf<(typeof FIELD_RULE_FILES)[number]>;
type Unregistered = Exclude<SingleFieldRuleId, Registered>;
/** A single-field rule of the catalogue that no file registers does not compile (the type names it). */
const EVERY_RULE_REGISTERED: [Unregistered] extends [never] ? true : Unregistered = true;

const VIOLATIONS = Object.assign({}, ...FIELD_RULE_FILES.map((f) => f.violations)) as { readonly [K in SingleFieldRuleId]: ViolationsOf };

const EDGES: { readonly [K in SingleFieldRuleId]?: readonly FieldViolation[] } = Object.assign(
  {},
  ...FIELD_RULE_FILES.map((f) => ('edges' in f ? f.edges : {})),
);

/** A rule's fixed violations (its file's `FIELD_RULES.edges`; empty: none declared). */
export function edgesOf(rule: SingleFieldRuleId): readonly FieldViolation[] {
  return EDGES[rule] ?? [];
}

/** Generators breaking `rule`, one per slot where it can be broken (slots in `slots` only). */
export function violationsOf(rule: SingleFieldRuleId, slots: readonly Slot[], marker?: RunMarker): Arbitrary<FieldViolation>[] {
  return VIOLATIONS[rule](slots, marker);
}

/** Any violation that can be placed in `slot`. */
export function violationsIn(slot: Slot, marker?: RunMarker): Arbitrary<FieldViolation> {
  const arbs = SINGLE_FIELD_RULE_IDS.flatMap((rule) => violationsOf(rule, [slot], marker));
  return fc.oneof(...arbs);
}

/** `body` with the violations applied, keeping the other fields (and their order) as they were. */
export function applyViolations(body: object, violations: readonly FieldViolation[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  for (const v of violations) {
    if (v.remove) delete out[v.slot];
    else out[v.slot] = v.value;
  }
  return out;
}
