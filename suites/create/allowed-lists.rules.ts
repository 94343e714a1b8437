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
  invalidAllowedChannels,
  invalidAllowedMethods,
  invalidCreateRequest,
  validAllowedChannels,
  validAllowedMethods,
  type InvalidCase,
} from '../../service/generators/index.ts';
import type { CaseTable } from '../../catalogue/case-table.ts';
import { ruleTest, type RuleContext } from '../../service/harness/worker/rule-test.ts';
import { create, expectCreated, expectRejected, fixedCase, fresh, marker } from './support.ts';
import { batched } from '../../service/harness/worker/batch.ts';
import { share } from '../../service/harness/worker/depth.ts';
import { INVALID_CHANNELS_CASES, INVALID_METHODS_CASES, VALID_CHANNELS_CASES, VALID_METHODS_CASES, type ListRow } from '../../service/generators/cases/create.ts';

type Field = 'allowed_methods' | 'allowed_channels';

function bodyWith(t: RuleContext, field: Field, value: unknown) {
  return { amount: '10.00', [field]: value, external_id: t.externalId('enum'), metadata: t.metadata() };
}

/** The body of a *-VALID test: fixed lists, then generated ones, each accepted and echoed. */
function validLists(field: Field, fixed: CaseTable<string[]>, arb: Arbitrary<string[]>): (t: RuleContext) => Promise<void> {
  return async (t) => {
    const check = async (list: string[]) => {
      const body = bodyWith(t, field, list);
      expectCreated(await create(t, body), body, `${field} ${JSON.stringify(list)}`);
    };
    await t.cases(fixed, check);
    await batched(t, arb, check, share(t.runs, 0.25));
  };
}

/** The body of an *-INVALID test: fixed non-members and malformed lists, then generated ones, alone and in full bodies. */
function invalidLists(
  rule: 'CREATE-ALLOWED-METHODS-INVALID' | 'CREATE-ALLOWED-CHANNELS-INVALID',
  field: Field,
  fixed: CaseTable<ListRow>,
  arb: Arbitrary<InvalidCase<unknown>>,
): (t: RuleContext) => Promise<void> {
  return async (t) => {
    const check = async (c: InvalidCase<unknown>) => expectRejected(await create(t, bodyWith(t, field, c.value)), c);
    await t.cases(fixed, (r) => check(fixedCase(r.value, rule, r.codes,
      `${field} ${JSON.stringify(r.value)} ${r.codes.length === 1 ? 'names something other than the allowed values' : 'is not an array of allowed values'}`)));
    await batched(t, arb, check, share(t.runs, 0.4));
    await batched(t, invalidCreateRequest({ breaks: [rule], marker: marker(t) }), async (c) => {
      expectRejected(await create(t, fresh(t, c.value, 'enum')), c);
    }, share(t.runs, 0.1));
  };
}

ruleTest('CREATE-ALLOWED-METHODS-VALID', validLists('allowed_methods', VALID_METHODS_CASES, validAllowedMethods()));

ruleTest('CREATE-ALLOWED-METHODS-INVALID', invalidLists(
  'CREATE-ALLOWED-METHODS-INVALID',
  'allowed_methods',
  INVALID_METHODS_CASES,
  invalidAllowedMethods(),
));

ruleTest('CREATE-ALLOWED-CHANNELS-VALID', validLists('allowed_channels', VALID_CHANNELS_CASES, validAllowedChannels()));

ruleTest('CREATE-ALLOWED-CHANNELS-INVALID', invalidLists(
  'CREATE-ALLOWED-CHANNELS-INVALID',
  'allowed_channels',
  INVALID_CHANNELS_CASES,
  invalidAllowedChannels(),
));
