/**
 * esid: Endpoints › Rules, Rules 1, 2 and 4 — "the same `Idempotency-Key`", "the same key", "an
 * `external_id` already used"; CreatePaymentRequest — external_id "unique per business and per
 * livemode when set".
 *
 * Two values the spec treats as different are not treated as equal (issue 25): a key or an
 * external_id with its letter case changed is another value. A fixed table on every seed: the
 * variants are built from the run's marker, so they never meet another run's values.
 */
import { ruleTest, type RuleContext } from '../../service/harness/worker/rule-test.ts';
import { expectStatus, expectTrue } from '../../service/harness/worker/expect.ts';
import { cancelIfPending, expectExactlyOne } from '../_shared/by-external-id.ts';
import { EXTERNAL_ID_VARIANT_CASES, KEY_VARIANT_CASES, type ValueVariant } from '../../service/generators/cases/states.ts';

/** A value of mixed case from the run's marker, so every variant differs from it. */
const mixed = (t: RuleContext, tag: string) => `${t.externalId(tag)}-MiXeD`;

async function keyVariant(t: RuleContext, { name, change }: ValueVariant): Promise<void> {
  const idem = mixed(t, 'ikc');
  const body = { amount: '10.00', external_id: mixed(t, 'ikb'), metadata: t.metadata() };
  const first = await t.client.createPayment(t.keys.test, body, { idempotencyKey: idem });
  expectStatus(first, 201, 'first use of the Idempotency-Key');
  // Another body under the other key: a new request, not Rule 2's "same key and a different body".
  const other = { ...body, amount: '11.00', external_id: mixed(t, 'ikb2') };
  const res = await t.client.createPayment(t.keys.test, other, { idempotencyKey: change(idem) });
  if (res.status === 201 && res.json?.id && res.json.id !== first.json?.id) await cancelIfPending(t, t.keys.test, [res.json.id]);
  expectStatus(res, 201, `the Idempotency-Key ${name} (${JSON.stringify(change(idem))} after ${JSON.stringify(idem)}), another body`);
  expectTrue(res.json?.id !== first.json?.id, `the Idempotency-Key ${name} replayed the other key's Payment ${first.json?.id}`, 'a new Payment', res.json?.id);
  await expectExactlyOne(t, t.keys.test, String(other.external_id), res.json.id, `the request under the key ${name}`);
}

async function externalIdVariant(t: RuleContext, { name, change }: ValueVariant): Promise<void> {
  const externalId = mixed(t, 'exc');
  const first = await t.client.createPayment(t.keys.test, { amount: '10.00', external_id: externalId, metadata: t.metadata() });
  expectStatus(first, 201, 'first use of the external_id');
  const variant = change(externalId);
  const res = await t.client.createPayment(t.keys.test, { amount: '10.00', external_id: variant, metadata: t.metadata() });
  if (res.status === 201 && res.json?.id) await cancelIfPending(t, t.keys.test, [res.json.id]);
  if (res.status === 400 && res.json?.error?.code === 'invalid_external_id') {
    t.note(`the external_id ${name} was refused 400 invalid_external_id (its format is not shown): not read as the other value`);
    return;
  }
  expectStatus(res, 201, `the external_id ${name} (${JSON.stringify(variant)} after ${JSON.stringify(externalId)}) is another external_id`);
  expectTrue(res.json?.id !== first.json?.id, `the external_id ${name} got the Payment of ${externalId} back`, 'a new Payment', res.json?.id);
  expectTrue(res.json?.external_id === variant, `the external_id ${name} was stored as ${JSON.stringify(res.json?.external_id)}`, variant, res.json?.external_id);
  await expectExactlyOne(t, t.keys.test, externalId, first.json.id, `the original external_id after its ${name} variant`);
}

ruleTest('IDEM-VALUES-EXACT', async (t) => {
  await t.cases(KEY_VARIANT_CASES, (v) => keyVariant(t, v), { concurrency: 1 });
  await t.cases(EXTERNAL_ID_VARIANT_CASES, (v) => externalIdVariant(t, v), { concurrency: 1 });
  const count = (table: typeof KEY_VARIANT_CASES) => table.rows({ testKey: t.keys.test }).length;
  t.note(`${count(KEY_VARIANT_CASES)} Idempotency-Key variants and ${count(EXTERNAL_ID_VARIANT_CASES)} external_id variants, each a new request`);
});
