/**
 * esid: Resources and their fields › CreatePaymentRequest — "customer_id: must belong to the
 * caller's business"; Errors — "invalid_customer 400: customer_id does not belong to the business".
 * A customer of the caller's business is accepted; a customer of another business, or one that
 * does not exist, answers 400 invalid_customer and creates nothing.
 */
import fc from 'fast-check';
import { validAmount } from '../../service/generators/valid-amount.ts';
import { ruleTest } from '../../service/harness/worker/rule-test.ts';
import { expectEqual, expectError, expectStatus } from '../../service/harness/worker/expect.ts';
import { expectNothingCreated } from '../_shared/by-external-id.ts';
import { share } from '../../service/harness/worker/depth.ts';

ruleTest('ORDER-CUSTOMER-ACCEPTED', async (t) => {
  const customerId = t.profile.fixtures!.customer_id!;
  await t.property(validAmount({ maxIntegerDigits: 6 }), async (amount) => {
    const res = await t.client.createPayment(t.keys.test, { amount, customer_id: customerId, external_id: t.externalId('cus'), metadata: t.metadata() });
    expectStatus(res, 201, `customer_id of the caller's business, amount ${amount}`);
    expectEqual(res.json?.status, 'PENDING', 'status of the created Payment');
  }, { runs: share(t.runs, 0.04) });
});

/** Customer ids no business has: the fixture's own id altered, or made-up ids of customer shape. */
const unknownCustomerId = (real: string) =>
  fc.oneof(
    fc.stringMatching(/^[A-Za-z0-9_]{4,24}$/).map((s) => `cus_${s}`),
    fc.stringMatching(/^[A-Za-z0-9]{6,12}$/).map((s) => `${real}${s}`),
  );

ruleTest('ORDER-INVALID-CUSTOMER', async (t) => {
  const fixtures = t.profile.fixtures!;
  const foreign = fixtures.foreign_customer_id!;
  const candidates = fc.oneof(
    { weight: 2, arbitrary: fc.constant({ kind: 'another business\'s customer', id: foreign }) },
    { weight: 1, arbitrary: unknownCustomerId(fixtures.customer_id ?? 'cus_').map((id) => ({ kind: 'unknown customer', id })) },
  );
  // The other business's customer first, whatever the seed draws.
  const cases = fc.tuple(candidates, validAmount({ maxIntegerDigits: 4 }));
  const check = async ([c, amount]: [{ kind: string; id: string }, string]) => {
    const externalId = t.externalId('badcus');
    const res = await t.client.createPayment(t.keys.test, { amount, customer_id: c.id, external_id: externalId, metadata: t.metadata() });
    expectError(res, 400, ['invalid_customer'], c.kind);
    await expectNothingCreated(t, t.keys.test, externalId, c.kind);
  };
  await check([{ kind: 'another business\'s customer', id: foreign }, '10.00']);
  // The business's own customer of the other environment: the environments are fully isolated.
  const live = fixtures.live_customer_id;
  if (live) await check([{ kind: 'the business\'s Live customer, with a Test key', id: live }, '10.00']);
  else {
    const why = 'fixtures.live_customer_id is absent: no customer of the other environment to send';
    t.notTried('create.field.customer_id#same-environment', why, ['fixtures.live_customer_id']);
  }
  await t.property(cases, check, { runs: share(t.runs, 0.06) });
});
