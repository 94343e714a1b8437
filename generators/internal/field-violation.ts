/**
 * One field of a createPayment body made invalid, for invalidCreateRequest and
 * multiViolationRequest. Not part of the public surface.
 *
 * Each single-field rule is matched to the body slots it can be broken in and to the generator that
 * breaks it there:
 *
 *   rule                                  slot(s)                         generator
 *   CREATE-AMOUNT-INVALID                 amount                          invalidAmount
 *   CREATE-AMOUNT-NOT-STRING              amount                          amountNotString
 *   CREATE-AMOUNT-MISSING                 amount (removed)                -
 *   CREATE-RETURN-URL-*                   return_url                      invalidReturnUrl
 *   CREATE-METADATA-*                     metadata                        invalidMetadata (keeps the run marker)
 *   CREATE-ALLOWED-METHODS-INVALID        allowed_methods                 invalidAllowedMethods
 *   CREATE-ALLOWED-CHANNELS-INVALID       allowed_channels                invalidAllowedChannels
 *   CREATE-CONTEXT-ITEMS-REJECTED         context_items (added)           contextItems
 *   CREATE-WRONG-TYPE                     any CreatePaymentRequest field  wrongTypeField
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { amountNotString } from '../amount-not-string.ts';
import { contextItems } from '../context-items.ts';
import { CREATE_REQUEST_FIELDS, type CreateRequestField } from '../create-payment-request.ts';
import { invalidAllowedChannels } from '../invalid-allowed-channels.ts';
import { invalidAllowedMethods } from '../invalid-allowed-methods.ts';
import { invalidAmount } from '../invalid-amount.ts';
import { CREATE_RULE_IDS, type CreateRuleId, type InvalidCase } from '../invalid-case.ts';
import { invalidMetadata, type MetadataRuleId } from '../invalid-metadata.ts';
import { invalidReturnUrl, type ReturnUrlRuleId } from '../invalid-return-url.ts';
import type { RunMarker } from '../valid-create-request.ts';
import { wrongTypeField } from '../wrong-type-field.ts';

/** The rules one field of a body can break (the body-level and multi rules excluded). */
export type SingleFieldRuleId = Exclude<CreateRuleId, 'CREATE-MALFORMED-JSON' | 'CREATE-BODY-NOT-OBJECT' | 'CREATE-MULTI-VIOLATION'>;

const NOT_SINGLE_FIELD: ReadonlySet<CreateRuleId> = new Set(['CREATE-MALFORMED-JSON', 'CREATE-BODY-NOT-OBJECT', 'CREATE-MULTI-VIOLATION']);

export const SINGLE_FIELD_RULE_IDS: readonly SingleFieldRuleId[] = CREATE_RULE_IDS.filter(
  (id): id is SingleFieldRuleId => !NOT_SINGLE_FIELD.has(id),
);

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

const set = (slot: Slot) => (c: InvalidCase<unknown>): FieldViolation => ({ slot, remove: false, value: c.value, case: c });

/** Generators breaking `rule`, one per slot where it can be broken (slots in `slots` only). */
export function violationsOf(rule: SingleFieldRuleId, slots: readonly Slot[], marker?: RunMarker): Arbitrary<FieldViolation>[] {
  const has = (s: Slot) => slots.includes(s);
  switch (rule) {
    case 'CREATE-AMOUNT-INVALID':
      return has('amount') ? [invalidAmount().map(set('amount'))] : [];
    case 'CREATE-AMOUNT-NOT-STRING':
      return has('amount') ? [amountNotString().map(set('amount'))] : [];
    case 'CREATE-AMOUNT-MISSING':
      return has('amount')
        ? [
            fc.constant<FieldViolation>({
              slot: 'amount',
              remove: true,
              value: undefined,
              case: { value: undefined, breaks: rule, codes: ['invalid_amount', 'invalid_request'], why: 'amount is missing (it is required)' },
            }),
          ]
        : [];
    case 'CREATE-RETURN-URL-FORBIDDEN-SCHEME':
    case 'CREATE-RETURN-URL-NOT-HTTPS':
      return has('return_url') ? [invalidReturnUrl({ breaks: [rule as ReturnUrlRuleId] }).map(set('return_url'))] : [];
    case 'CREATE-METADATA-TOO-MANY-KEYS':
    case 'CREATE-METADATA-KEY-TOO-LONG':
    case 'CREATE-METADATA-VALUE-TOO-LONG':
    case 'CREATE-METADATA-NOT-STRINGS':
      return has('metadata')
        ? [
            invalidMetadata({
              breaks: [rule as MetadataRuleId],
              ...(marker ? { include: { conformance_run: marker.runId } } : {}),
            }).map(set('metadata')),
          ]
        : [];
    case 'CREATE-ALLOWED-METHODS-INVALID':
      return has('allowed_methods') ? [invalidAllowedMethods().map(set('allowed_methods'))] : [];
    case 'CREATE-ALLOWED-CHANNELS-INVALID':
      return has('allowed_channels') ? [invalidAllowedChannels().map(set('allowed_channels'))] : [];
    case 'CREATE-CONTEXT-ITEMS-REJECTED':
      return has('context_items') ? [contextItems().map(set('context_items'))] : [];
    case 'CREATE-WRONG-TYPE':
      return CREATE_REQUEST_FIELDS.filter(has).map((field) =>
        wrongTypeField({ fields: [field] }).map((c): FieldViolation => ({ slot: field, remove: false, value: c.value.value, case: c })),
      );
  }
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
