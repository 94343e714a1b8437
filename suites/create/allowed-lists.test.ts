/**
 * esid: Resources and their fields › CreatePaymentRequest — "allowed_methods | array of PaymentMethod
 * | only BKASH or NAGAD", "allowed_channels | array of CollectionChannel | only the four channel
 * values"; Enumerations — PaymentMethod BKASH, NAGAD; CollectionChannel SEND_MONEY, PAYMENT,
 * CASH_IN, BANK_TRANSFER; "Request filters are strict"; Errors — invalid_allowed_method,
 * invalid_allowed_channel.
 * Any non-empty set of members is accepted and echoed (as the same members; their order is not
 * asserted). A list naming anything else — another letter case, padding, an unknown value — is
 * rejected with the field's code; a list that is not an array of strings may also answer
 * invalid_request (the case's own codes say which).
 */
import type { Arbitrary } from 'fast-check';
import {
  COLLECTION_CHANNELS,
  enumNearMisses,
  invalidAllowedChannels,
  invalidAllowedMethods,
  invalidCreateRequest,
  PAYMENT_METHODS,
  validAllowedChannels,
  validAllowedMethods,
  type InvalidCase,
} from '../../generators/index.ts';
import type { ErrorCode } from '../../catalogue/error-codes.ts';
import { ruleTest, type RuleContext } from '../../runner/rule-test.ts';
import { create, eachCase, expectCreated, expectRejected, fixedCase, fresh, marker, batched } from './support.ts';
import { share } from '../../runner/depth.ts';

type Field = 'allowed_methods' | 'allowed_channels';

function bodyWith(t: RuleContext, field: Field, value: unknown) {
  return { amount: '10.00', [field]: value, external_id: t.externalId('enum'), metadata: t.metadata() };
}

/** The body of a *-VALID test: fixed lists, then generated ones, each accepted and echoed. */
function validLists(field: Field, fixed: string[][], arb: Arbitrary<string[]>): (t: RuleContext) => Promise<void> {
  return async (t) => {
    const check = async (list: string[]) => {
      const body = bodyWith(t, field, list);
      expectCreated(await create(t, body), body, `${field} ${JSON.stringify(list)}`);
    };
    await eachCase(fixed, check);
    await batched(t, arb, check, share(t.runs, 0.25));
  };
}

/** The body of an *-INVALID test: fixed non-members and malformed lists, then generated ones, alone and in full bodies. */
function invalidLists(
  rule: 'CREATE-ALLOWED-METHODS-INVALID' | 'CREATE-ALLOWED-CHANNELS-INVALID',
  field: Field,
  code: ErrorCode,
  notMembers: unknown[][],
  malformed: unknown[],
  arb: Arbitrary<InvalidCase<unknown>>,
): (t: RuleContext) => Promise<void> {
  return async (t) => {
    const fixed = [
      ...notMembers.map((v) => fixedCase(v, rule, [code], `${field} ${JSON.stringify(v)} names something other than the allowed values`)),
      ...malformed.map((v) => fixedCase(v, rule, ['invalid_request', code], `${field} ${JSON.stringify(v)} is not an array of allowed values`)),
    ];
    const check = async (c: InvalidCase<unknown>) => expectRejected(await create(t, bodyWith(t, field, c.value)), c);
    await eachCase(fixed, check);
    await batched(t, arb, check, share(t.runs, 0.4));
    await batched(t, invalidCreateRequest({ breaks: [rule], marker: marker(t) }), async (c) => {
      expectRejected(await create(t, fresh(t, c.value, 'enum')), c);
    }, share(t.runs, 0.1));
  };
}

/**
 * Edge table of near misses (every seed): each member in lower case, capitalised, padded with a space
 * or a tab, alone and after a valid member (so a check of the first item only is caught).
 */
function nearMissLists(members: readonly string[]): string[][] {
  return enumNearMisses(members).flatMap((m) => [[m.value], [members.find((x) => x !== m.of) ?? m.of, m.value]]);
}

ruleTest('CREATE-ALLOWED-METHODS-VALID', validLists('allowed_methods', [['BKASH'], ['NAGAD'], ['BKASH', 'NAGAD'], ['NAGAD', 'BKASH']], validAllowedMethods()));

ruleTest('CREATE-ALLOWED-METHODS-INVALID', invalidLists(
  'CREATE-ALLOWED-METHODS-INVALID',
  'allowed_methods',
  'invalid_allowed_method',
  [...nearMissLists(PAYMENT_METHODS), ['NAGAD', 'bKash'], ['ROCKET'], ['BKASH', 'CARD'], ['BKASH', ''], ['SEND_MONEY']],
  [[1], ['BKASH', null], [['BKASH']], 'BKASH', 'BKASH,NAGAD', { BKASH: true }, 1],
  invalidAllowedMethods(),
));

ruleTest('CREATE-ALLOWED-CHANNELS-VALID', validLists(
  'allowed_channels',
  [['SEND_MONEY'], ['PAYMENT'], ['CASH_IN'], ['BANK_TRANSFER'], ['SEND_MONEY', 'PAYMENT', 'CASH_IN', 'BANK_TRANSFER'], ['BANK_TRANSFER', 'CASH_IN']],
  validAllowedChannels(),
));

ruleTest('CREATE-ALLOWED-CHANNELS-INVALID', invalidLists(
  'CREATE-ALLOWED-CHANNELS-INVALID',
  'allowed_channels',
  'invalid_allowed_channel',
  [...nearMissLists(COLLECTION_CHANNELS), ['SEND-MONEY'], ['CASH_OUT'], ['PAYMENT', 'QR'], ['PAYMENT', ''], ['BKASH']],
  [[1], ['PAYMENT', null], [['CASH_IN']], 'SEND_MONEY', { SEND_MONEY: true }, true],
  invalidAllowedChannels(),
));
