/**
 * esid: Endpoints › Rules, Rule 2 — "createPayment with the same key and a different body answers
 * 409 idempotency_conflict"; Authentication — "Idempotency keys are scoped to the API key."
 */
import fc from 'fast-check';
import { ruleTest } from '../../service/harness/worker/rule-test.ts';
import { expectError, expectEqual, expectStatus, expectTrue } from '../../service/harness/worker/expect.ts';
import { bodyChange } from '../../service/generators/body-change.ts';
import { idempotencyBodyFields } from '../../service/generators/idempotency-body-fields.ts';
import { idempotencyKeySuffix } from '../../service/generators/idempotency-key-suffix.ts';
import { bodyOf, changedBody, idempotencyKey } from './bodies.ts';
import { cancelIfPending, expectExactlyOne, expectNothingCreated } from '../_shared/by-external-id.ts';
import { share } from '../../service/harness/worker/depth.ts';

ruleTest('IDEM-CONFLICT', async (t) => {
  // Same key, same external_id, another amount: Rules 2 and 4 both apply; either code is accepted.
  {
    const idem = idempotencyKey(t, 'both');
    const body = { amount: '10.00', external_id: t.externalId('idemc'), metadata: t.metadata() };
    const first = await t.client.createPayment(t.keys.test, body, { idempotencyKey: idem });
    expectStatus(first, 201, 'first request');
    const second = await t.client.createPayment(t.keys.test, { ...body, amount: '11.00' }, { idempotencyKey: idem });
    expectError(second, 409, ['idempotency_conflict', 'external_id_conflict'], 'same key, same external_id, another amount');
    t.observe('same_external_id_other_amount', second.json?.error?.code);
  }
  await t.property(fc.tuple(idempotencyKeySuffix(), idempotencyBodyFields(), bodyChange()), async ([suffix, fields, c]) => {
    const idem = idempotencyKey(t, suffix);
    const body = bodyOf(t, fields, t.externalId('idemc'));
    const first = await t.client.createPayment(t.keys.test, body, { idempotencyKey: idem });
    expectStatus(first, 201, 'first request');
    const other = changedBody(t, body, c);
    const second = await t.client.createPayment(t.keys.test, other, { idempotencyKey: idem });
    if (second.status === 201 && second.json?.id && second.json.id !== first.json.id) await cancelIfPending(t, t.keys.test, [second.json.id]);
    expectError(second, 409, ['idempotency_conflict'], `same Idempotency-Key, body changed (${c})`);
    // The conflicting request created nothing, and the key still replays the original.
    await expectNothingCreated(t, t.keys.test, String(other.external_id), 'the conflicting request');
    await expectExactlyOne(t, t.keys.test, String(body.external_id), first.json.id, 'the original request');
    const replay = await t.client.createPayment(t.keys.test, body, { idempotencyKey: idem });
    expectStatus(replay, 201, 'the original body again after the conflict');
    expectEqual(replay.json?.id, first.json.id, 'Payment id of the replay after the conflict');
  }, { runs: share(t.runs, 0.08) });
});

ruleTest('IDEM-SCOPED-TO-API-KEY', async (t) => {
  const sameBusiness = t.keys.test_write_only;
  const otherBusiness = t.keys.other_test;
  if (!sameBusiness && !otherBusiness) t.skip('profile lacks keys.test_write_only and keys.other_test: no second API key with payments:write');
  await t.property(fc.tuple(idempotencyKeySuffix(), idempotencyBodyFields()), async ([suffix, fields]) => {
    const idem = idempotencyKey(t, suffix);
    const body = bodyOf(t, fields, t.externalId('idems'));
    const first = await t.client.createPayment(t.keys.test, body, { idempotencyKey: idem });
    expectStatus(first, 201, 'keys.test, first use of the Idempotency-Key');
    if (sameBusiness) {
      // Another API key of the same business: a new request (its own external_id, or Rule 4 would apply).
      const other = { ...body, external_id: t.externalId('idems2') };
      const res = await t.client.createPayment(sameBusiness, other, { idempotencyKey: idem });
      if (res.status === 201 && res.json?.id) await cancelIfPending(t, t.keys.test, [res.json.id]);
      expectStatus(res, 201, 'the same Idempotency-Key under keys.test_write_only (same business), another body');
      expectTrue(res.json?.id !== first.json.id, `keys.test_write_only got the Payment of keys.test (${first.json.id}) back`, 'a new Payment', res.json?.id);
      await expectExactlyOne(t, t.keys.test, String(other.external_id), res.json.id, 'the Payment of keys.test_write_only');
    }
    if (otherBusiness) {
      // Another business, the very same request: a new Payment there.
      const res = await t.client.createPayment(otherBusiness, body, { idempotencyKey: idem });
      expectStatus(res, 201, 'the same Idempotency-Key and body under keys.other_test');
      expectTrue(res.json?.id !== first.json.id, `keys.other_test got the Payment of keys.test (${first.json.id}) back`, 'a new Payment', res.json?.id);
      await expectExactlyOne(t, otherBusiness, String(body.external_id), res.json.id, 'the Payment of keys.other_test');
    }
  }, { runs: share(t.runs, 0.05) });
});
