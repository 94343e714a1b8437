/**
 * amountNotString: an `amount` that is not a JSON string.
 *
 * Spec, CreatePaymentRequest: amount is a decimal string, "never a JSON number". Any JSON value that
 * is not a string breaks it: integers, fractions, huge numbers, booleans, null, arrays, objects.
 *
 * Codes: `invalid_amount` (the amount is not a positive decimal string) and `invalid_request` (the
 * body does not have the request's shape) both match the condition, so either is accepted
 * (DESIGN oracle principle 1). `null` is included: amount is required, so a target that reads
 * `null` as absent still answers with one of the two.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import type { InvalidCase } from './invalid-case.ts';
import { show } from './internal/charsets.ts';
import { has, reading, set, type FieldRules } from './internal/field-rule.ts';

type JsonNonString = number | boolean | null | unknown[] | Record<string, unknown>;

function notString(value: JsonNonString, kind: string): InvalidCase<JsonNonString> {
  return {
    value,
    breaks: 'CREATE-AMOUNT-NOT-STRING',
    codes: ['invalid_amount', 'invalid_request'],
    why: `amount ${show(value)} is ${kind}, not a decimal string`,
  };
}

/** JSON values of every type but string; breaks `CREATE-AMOUNT-NOT-STRING`. */
export function amountNotString(): Arbitrary<InvalidCase<JsonNonString>> {
  return fc.oneof(
    fc.integer({ min: 1, max: 1_000_000 }).map((n) => notString(n, 'a JSON integer')),
    fc.integer({ min: 1, max: 100_000_000 }).map((n) => notString(n / 100, 'a JSON number')),
    fc
      .double({ noNaN: true, noDefaultInfinity: true })
      .map((n) => notString(Object.is(n, -0) ? 0 : n, 'a JSON number')),
    fc
      .constantFrom(1e21, 1e308, Number.MAX_SAFE_INTEGER + 2, 12345678901234567.89, 0, -5)
      .map((n) => notString(n, 'a JSON number')),
    fc.boolean().map((b) => notString(b, 'a boolean')),
    fc.constant(null).map((n) => notString(n, 'null')),
    fc.constantFrom<unknown[][]>([], ['10.00'], [10], ['10', '00']).map((a) => notString(a, 'an array')),
    fc
      .constantFrom<Record<string, unknown>[]>({}, { amount: '10.00' }, { value: '10.00', currency: 'BDT' })
      .map((o) => notString(o, 'an object')),
  );
}

/** CREATE-AMOUNT-NOT-STRING in a body (service/generators/internal/field-rule.ts). */
export const FIELD_RULES: FieldRules<'CREATE-AMOUNT-NOT-STRING'> = {
  violations: {
    'CREATE-AMOUNT-NOT-STRING': (slots) => (slots.includes('amount') ? [amountNotString().map(set('amount'))] : []),
  },
  // "amount ... a decimal string": any other JSON type
  oracle: (body) => reading('amount', has(body, 'amount') && typeof body.amount !== 'string' ? ['CREATE-AMOUNT-NOT-STRING'] : []),
};
