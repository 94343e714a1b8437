/**
 * esid: Endpoints › Rules, Rule 1 — "createPayment with the same Idempotency-Key and an identical
 * body returns the original result and creates no duplicate."
 * A replay answers the original status and Payment id; one that carried an external_id is not an
 * external_id_conflict. Whether the replayed body is the original snapshot or the current state,
 * and whether a refused create is replayed, are not shown: observed.
 */
import fc from 'fast-check';
import { ruleTest } from '../../service/harness/worker/rule-test.ts';
import { deepEqual, expectEqual, expectStatus } from '../../service/harness/worker/expect.ts';
import { idempotencyBodyFields } from '../../service/generators/idempotency-body-fields.ts';
import { idempotencyKeySuffix } from '../../service/generators/idempotency-key-suffix.ts';
import { bodyOf, idempotencyKey } from './bodies.ts';
import { expectExactlyOne } from '../_shared/by-external-id.ts';
import { expectOnlyMarked } from './by-mark.ts';
import { share } from '../../service/harness/worker/depth.ts';

ruleTest('IDEM-REPLAY', async (t) => {
  const cases = fc.record({
    suffix: idempotencyKeySuffix(),
    fields: idempotencyBodyFields(),
    withExternalId: fc.boolean(),
    replays: fc.integer({ min: 1, max: 3 }),
  });
  await t.property(cases, async ({ suffix, fields, withExternalId, replays }) => {
    const idem = idempotencyKey(t, suffix);
    const externalId = withExternalId ? t.externalId('idem') : null;
    const body = bodyOf(t, fields, externalId);
    const first = await t.client.createPayment(t.keys.test, body, { idempotencyKey: idem });
    expectStatus(first, 201, 'first request');
    for (let i = 1; i <= replays; i++) {
      const again = await t.client.createPayment(t.keys.test, body, { idempotencyKey: idem });
      expectStatus(again, first.status, `replay ${i} (same Idempotency-Key, identical body)`);
      expectEqual(again.json?.id, first.json.id, `Payment id of replay ${i}`);
    }
    // No duplicate: the external_id this body carried lists exactly the original Payment.
    if (externalId !== null) await expectExactlyOne(t, t.keys.test, externalId, first.json.id, 'after the replays');
  }, { runs: share(t.runs, 0.1) });

  // No duplicate without an external_id either (fixed, every seed): the Payments created since the
  // original that carry this create's mark are the original alone.
  const mark = ['conformance_case', `replay-${t.externalId('mark')}`] as const;
  const body = { amount: '12.34', metadata: t.metadata({ [mark[0]]: mark[1] }) };
  const idem = idempotencyKey(t, 'no-duplicate');
  const first = await t.client.createPayment(t.keys.test, body, { idempotencyKey: idem });
  expectStatus(first, 201, 'first request (no external_id)');
  for (let i = 1; i <= 2; i++) {
    const again = await t.client.createPayment(t.keys.test, body, { idempotencyKey: idem });
    expectStatus(again, 201, `replay ${i} of a create without external_id`);
    expectEqual(again.json?.id, first.json.id, `Payment id of replay ${i}`);
  }
  await expectOnlyMarked(t, t.keys.test, first.json, mark, 'after two replays of a create without external_id');
});

ruleTest('IDEM-REPLAY-EXTERNAL-ID', async (t) => {
  await t.property(fc.tuple(idempotencyKeySuffix(), idempotencyBodyFields()), async ([suffix, fields]) => {
    const idem = idempotencyKey(t, suffix);
    const externalId = t.externalId('idemx');
    const body = bodyOf(t, fields, externalId);
    const first = await t.client.createPayment(t.keys.test, body, { idempotencyKey: idem });
    expectStatus(first, 201, 'first request');
    const again = await t.client.createPayment(t.keys.test, body, { idempotencyKey: idem });
    expectStatus(again, 201, 'replay of a create with an external_id (the original result, not external_id_conflict)');
    expectEqual(again.json?.id, first.json.id, 'Payment id of the replay');
    // Still the original result once the Payment has moved on.
    const cancel = await t.client.cancelPayment(t.keys.test, first.json.id);
    expectStatus(cancel, 200, 'cancelling the original Payment');
    const later = await t.client.createPayment(t.keys.test, body, { idempotencyKey: idem });
    expectStatus(later, 201, 'replay after the Payment was cancelled (the original result, not external_id_conflict)');
    expectEqual(later.json?.id, first.json.id, 'Payment id of the replay after cancel');
    await expectExactlyOne(t, t.keys.test, externalId, first.json.id, 'after the replays');
  }, { runs: share(t.runs, 0.06) });
});

ruleTest('IDEM-REPLAY-BODY', async (t) => {
  const idem = idempotencyKey(t, 'replay-body');
  const body = { amount: '42.50', description: 'replay body', external_id: t.externalId('idemb'), metadata: t.metadata() };
  const first = await t.client.createPayment(t.keys.test, body, { idempotencyKey: idem });
  expectStatus(first, 201, 'first request');
  const same = await t.client.createPayment(t.keys.test, body, { idempotencyKey: idem });
  t.observe('replay_before_change_equals_original_body', deepEqual(same.json, first.json));
  t.observe('replay_headers', Object.fromEntries(Object.entries(same.headers).filter(([k]) => /idempot|replay/i.test(k))));
  const cancel = await t.client.cancelPayment(t.keys.test, first.json.id);
  expectStatus(cancel, 200, 'cancelling the original Payment');
  const after = await t.client.createPayment(t.keys.test, body, { idempotencyKey: idem });
  t.observe('replay_after_cancel_status_code', after.status);
  t.observe('replay_after_cancel_payment_status', after.json?.status ?? after.json?.error?.code ?? null);
  t.observe(
    'replay_body_is',
    after.json?.status === 'PENDING' && deepEqual(after.json, first.json)
      ? 'the original snapshot'
      : after.json?.status === 'CANCELLED'
        ? 'the current state'
        : 'other',
  );
});

ruleTest('IDEM-ERROR-REPLAY', async (t) => {
  const idem = idempotencyKey(t, 'error-replay');
  const bad = { amount: '-1', external_id: t.externalId('idemerr'), metadata: t.metadata() };
  const first = await t.client.createPayment(t.keys.test, bad, { idempotencyKey: idem });
  t.observe('refused_create', `${first.status} ${first.json?.error?.code ?? ''}`.trim());
  const again = await t.client.createPayment(t.keys.test, bad, { idempotencyKey: idem });
  t.observe('same_refused_body_again', `${again.status} ${again.json?.error?.code ?? ''}`.trim());
  t.observe('same_request_id_on_repeat', first.json?.error?.request_id !== undefined && first.json?.error?.request_id === again.json?.error?.request_id);
  const fixed = { ...bad, amount: '10.00' };
  const corrected = await t.client.createPayment(t.keys.test, fixed, { idempotencyKey: idem });
  t.observe('corrected_body_same_key', `${corrected.status} ${corrected.json?.error?.code ?? ''}`.trim());
  t.observe(
    'refused_create_is',
    corrected.status === 201 ? 'evaluated anew (the key was not kept)' : corrected.json?.error?.code === 'idempotency_conflict' ? 'kept under the key (a different body conflicts)' : 'other',
  );
});
