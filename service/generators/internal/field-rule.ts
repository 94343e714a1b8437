/**
 * What a generator file contributes for the single-field createPayment rules it breaks, so that
 * invalidCreateRequest and multiViolationRequest can place a violation in any body and the specs'
 * oracle can read a body for it. Each file exports one `FIELD_RULES` (a {@link FieldRules});
 * service/generators/internal/field-violation.ts gathers them into a record over every `SingleFieldRuleId`
 * (a rule of the catalogue with `invalidInput: 'field'` and no entry does not compile). Not part of
 * the public surface.
 */
import type { Arbitrary } from 'fast-check';
import { CREATE_REQUEST_FIELDS, type CreateRequestField } from '../create-payment-request.ts';
import type { InvalidCase, SingleFieldRuleId } from '../invalid-case.ts';
import type { RunMarker } from '../valid-create-request.ts';

export type Slot = CreateRequestField | 'context_items';
export const SLOTS: readonly Slot[] = [...CREATE_REQUEST_FIELDS, 'context_items'];

export interface FieldViolation {
  slot: Slot;
  /** true: the slot is removed from the body; false: it is set to `value`. */
  remove: boolean;
  value: unknown;
  /** The field-level case (its `value` is the field's value, or {field, value} for a wrong type). */
  case: InvalidCase<unknown>;
}

/** Generators breaking one rule, one per slot where it can be broken (slots in `slots` only). */
export type ViolationsOf = (slots: readonly Slot[], marker?: RunMarker) => Arbitrary<FieldViolation>[];

/** A body as the oracle reads it. */
export type Body = Readonly<Record<string, unknown>>;

/**
 * One generator file's contribution: its rules' violations, and the oracle's reading of a body for
 * those rules. The reading is written from the spec's words, never from the generator's code: slot →
 * the rules (or `BORDERLINE`, for a value the spec does not clearly rule on) that slot breaks.
 */
export interface FieldRules<R extends SingleFieldRuleId> {
  readonly violations: { readonly [K in R]: ViolationsOf };
  readonly oracle: (body: Body) => Readonly<Record<string, readonly string[]>>;
  /**
   * A rule's fixed violations (the forms its clause names), run on every seed before the drawn ones
   * by the rule's derived test (suites/create/field-rules.ts), each a titled, replayable case.
   * Used by rules without a test written by hand; absent: the drawn violations only.
   */
  readonly edges?: { readonly [K in R]?: readonly FieldViolation[] };
}

/** A violation setting `slot` to the case's value. */
export const set = (slot: Slot) => (c: InvalidCase<unknown>): FieldViolation => ({ slot, remove: false, value: c.value, case: c });

/** Whether `body` has `field` as an own member. */
export const has = (body: Body, field: string): boolean => Object.prototype.hasOwnProperty.call(body, field);

/** `{ [slot]: rules }` when `rules` is not empty, else `{}`. */
export const reading = (
  slot: string,
  rules: readonly string[],
): Record<string, readonly string[]> => (rules.length > 0 ? { [slot]: rules } : {});
