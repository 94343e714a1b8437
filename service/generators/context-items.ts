/**
 * contextItems: `context_items` values in any shape; breaks `CREATE-CONTEXT-ITEMS-REJECTED`, codes
 * `[context_items_not_accepted]`.
 *
 * Spec, CreatePaymentRequest: "`context_items` are not accepted and cause a 400
 * `context_items_not_accepted`"; Errors: the condition is "context_items sent". The field has no
 * type in the spec, so no shape of it can be "malformed": sending it at all is the violation, and
 * only the specific code applies.
 *
 *   context-items = array of item objects / [] / string / number / boolean / object
 *
 * `null` is left out on purpose (borderlineContextItems): many JSON readers treat a key holding null
 * as absent, and whether that counts as "sent" is not settled by the spec.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import type { InvalidCase } from './invalid-case.ts';
import { show, trimmedPrintableAscii } from './internal/charsets.ts';
import { has, reading, set, type FieldRules } from './internal/field-rule.ts';
import { validAmount } from './valid-amount.ts';

const item = fc.record(
  {
    name: trimmedPrintableAscii(1, 30),
    quantity: fc.integer({ min: 1, max: 20 }),
    unit_price: validAmount({ maxIntegerDigits: 6 }),
    sku: trimmedPrintableAscii(1, 12),
  },
  { requiredKeys: ['name'] },
);

function rejected(value: unknown, shape: string): InvalidCase<unknown> {
  return {
    value,
    breaks: 'CREATE-CONTEXT-ITEMS-REJECTED',
    codes: ['context_items_not_accepted'],
    why: `context_items ${show(value, 50)} (${shape}) is sent, and context_items are not accepted`,
  };
}

/** Any `context_items` value other than null. */
export function contextItems(): Arbitrary<InvalidCase<unknown>> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.array(item, { minLength: 1, maxLength: 5 }).map((items) => rejected(items, 'an array of items')) },
    { weight: 1, arbitrary: fc.constant(rejected([], 'an empty array')) },
    { weight: 1, arbitrary: fc.constantFrom('', 'items', '[]').map((s) => rejected(s, 'a string')) },
    { weight: 1, arbitrary: fc.constantFrom(0, 1, 3.5).map((n) => rejected(n, 'a number')) },
    { weight: 1, arbitrary: fc.boolean().map((b) => rejected(b, 'a boolean')) },
    { weight: 1, arbitrary: fc.oneof(fc.constant({}), item).map((o) => rejected(o, 'an object')) },
  );
}

/** CREATE-CONTEXT-ITEMS-REJECTED in a body (service/generators/internal/field-rule.ts). */
export const FIELD_RULES: FieldRules<'CREATE-CONTEXT-ITEMS-REJECTED'> = {
  violations: {
    'CREATE-CONTEXT-ITEMS-REJECTED': (slots) => (slots.includes('context_items') ? [contextItems().map(set('context_items'))] : []),
  },
  // "context_items are not accepted": in any shape
  oracle: (body) => reading('context_items', has(body, 'context_items') ? ['CREATE-CONTEXT-ITEMS-REJECTED'] : []),
};
