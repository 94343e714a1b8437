/**
 * invalidAllowedMethods: allowed_methods values the spec clearly rejects; breaks
 * `CREATE-ALLOWED-METHODS-INVALID`.
 *
 * Spec: allowed_methods is an "array of PaymentMethod", "only BKASH or NAGAD"; Errors:
 * `invalid_allowed_method` — "allowed_methods names something other than BKASH or NAGAD".
 *
 *   case                                          codes
 *   ["bkash"], ["NAGAD", "Bkash"], [" BKASH"],    [invalid_allowed_method]
 *   ["ROCKET"], ["BKASH", ""]                     (well-formed array, a non-member string)
 *   [1], ["BKASH", null], [["BKASH"]]             [invalid_request, invalid_allowed_method]
 *   "BKASH", "BKASH,NAGAD", {"BKASH": true}, 1    [invalid_request, invalid_allowed_method]
 *
 * The reasoning per case is in invalid-enum-list.ts.
 */
import type { Arbitrary } from 'fast-check';
import { PAYMENT_METHODS } from './create-payment-request.ts';
import { enumListReading, invalidEnumList } from './invalid-enum-list.ts';
import { has, reading, set, type FieldRules } from './internal/field-rule.ts';
import type { InvalidCase } from './invalid-case.ts';

/** allowed_methods values naming something other than BKASH or NAGAD. */
export function invalidAllowedMethods(): Arbitrary<InvalidCase<unknown>> {
  return invalidEnumList({
    field: 'allowed_methods',
    members: PAYMENT_METHODS,
    unknown: ['ROCKET', 'UPAY', 'CARD', 'VISA', 'SURECASH', 'TAP', 'CASH', 'BKASH_NAGAD', 'B_KASH'],
    code: 'invalid_allowed_method',
    breaks: 'CREATE-ALLOWED-METHODS-INVALID',
  });
}

/** CREATE-ALLOWED-METHODS-INVALID in a body (service/generators/internal/field-rule.ts). */
export const FIELD_RULES: FieldRules<'CREATE-ALLOWED-METHODS-INVALID'> = {
  violations: {
    'CREATE-ALLOWED-METHODS-INVALID': (slots) => (slots.includes('allowed_methods') ? [invalidAllowedMethods().map(set('allowed_methods'))] : []),
  },
  // "allowed_methods names something other than ['BKASH', 'NAGAD']" (a list that is no array is also a wrong type)
  oracle: (body) => (has(
    body,
    'allowed_methods',
  ) ? reading('allowed_methods', enumListReading(body.allowed_methods, ['BKASH', 'NAGAD'], 'CREATE-ALLOWED-METHODS-INVALID')) : {}),
};
