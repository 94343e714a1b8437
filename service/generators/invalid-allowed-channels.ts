/**
 * invalidAllowedChannels: allowed_channels values the spec clearly rejects; breaks
 * `CREATE-ALLOWED-CHANNELS-INVALID`.
 *
 * Spec: allowed_channels is an "array of CollectionChannel", "only the four channel values"
 * (SEND_MONEY, PAYMENT, CASH_IN, BANK_TRANSFER); Errors: `invalid_allowed_channel` —
 * "allowed_channels names something other than the four channel values".
 *
 *   case                                              codes
 *   ["send_money"], ["Payment"], ["SEND-MONEY"],      [invalid_allowed_channel]
 *   ["CASH_OUT"], ["PAYMENT", ""]                     (well-formed array, a non-member string)
 *   [1], ["PAYMENT", null], [["CASH_IN"]]             [invalid_request, invalid_allowed_channel]
 *   "SEND_MONEY", {"SEND_MONEY": true}, 1             [invalid_request, invalid_allowed_channel]
 *
 * The reasoning per case is in invalid-enum-list.ts.
 */
import type { Arbitrary } from 'fast-check';
import { COLLECTION_CHANNELS } from './create-payment-request.ts';
import { enumListReading, invalidEnumList } from './invalid-enum-list.ts';
import { has, reading, set, type FieldRules } from './internal/field-rule.ts';
import type { InvalidCase } from './invalid-case.ts';

/** allowed_channels values naming something other than the four channel values. */
export function invalidAllowedChannels(): Arbitrary<InvalidCase<unknown>> {
  return invalidEnumList({
    field: 'allowed_channels',
    members: COLLECTION_CHANNELS,
    unknown: ['SEND-MONEY', 'SENDMONEY', 'CASH_OUT', 'CASHIN', 'BANK', 'CARD', 'MERCHANT_PAYMENT', 'QR', 'BANK_TRANSFERS'],
    code: 'invalid_allowed_channel',
    breaks: 'CREATE-ALLOWED-CHANNELS-INVALID',
  });
}

/** CREATE-ALLOWED-CHANNELS-INVALID in a body (service/generators/internal/field-rule.ts). */
export const FIELD_RULES: FieldRules<'CREATE-ALLOWED-CHANNELS-INVALID'> = {
  violations: {
    'CREATE-ALLOWED-CHANNELS-INVALID': (slots) => (slots.includes('allowed_channels') ? [invalidAllowedChannels().map(set('allowed_channels'))] : []),
  },
  // "allowed_channels names something other than ['SEND_MONEY', 'PAYMENT', 'CASH_IN', 'BANK_TRANSFER']" (a list that is no array is also a
  // wrong type)
  oracle: (body) => (has(
    body,
    'allowed_channels',
  ) ? reading(
    'allowed_channels',
    enumListReading(body.allowed_channels, ['SEND_MONEY', 'PAYMENT', 'CASH_IN', 'BANK_TRANSFER'], 'CREATE-ALLOWED-CHANNELS-INVALID'),
  ) : {}),
};
