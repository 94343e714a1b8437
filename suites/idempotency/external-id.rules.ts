/**
 * esid: Endpoints › Rules, Rule 4 — "createPayment with an external_id already used in the same
 * business and environment answers 409 external_id_conflict"; CreatePaymentRequest — external_id
 * "unique per business and per livemode when set".
 */
import fc from 'fast-check';
import { ruleTest } from '../../service/harness/worker/rule-test.ts';
import { expectError, expectStatus, expectTrue } from '../../service/harness/worker/expect.ts';
import { idempotencyBodyFields } from '../../service/generators/idempotency-body-fields.ts';
import { idempotencyKeySuffix } from '../../service/generators/idempotency-key-suffix.ts';
import { bodyOf, idempotencyKey } from './bodies.ts';
import { cancelIfPending, expectExactlyOne } from '../_shared/by-external-id.ts';
import { share } from '../../service/harness/worker/depth.ts';

ruleTest('IDEM-EXTERNAL-ID-CONFLICT', async (t) => {
  const second = fc.record({
    fields: fc.option(idempotencyBodyFields(), { nil: undefined }), // undefined: the identical body again
    suffix: fc.option(idempotencyKeySuffix(), { nil: undefined }), // a fresh Idempotency-Key, or none
  });
  await t.property(fc.tuple(idempotencyBodyFields(), second), async ([fields, s]) => {
    const externalId = t.externalId('ext');
    const body = bodyOf(t, fields, externalId);
    const first = await t.client.createPayment(t.keys.test, body);
    expectStatus(first, 201, 'first use of the external_id');
    const again = s.fields ? bodyOf(t, s.fields, externalId) : body;
    const opts = s.suffix !== undefined ? { idempotencyKey: idempotencyKey(t, s.suffix) } : {};
    const res = await t.client.createPayment(t.keys.test, again, opts);
    if (res.status === 201 && res.json?.id) await cancelIfPending(t, t.keys.test, [res.json.id]);
    expectError(res, 409, ['external_id_conflict'], `the external_id again (${s.fields ? 'another body' : 'the identical body'}, ${s.suffix !== undefined ? 'a fresh Idempotency-Key' : 'no Idempotency-Key'})`);
    await expectExactlyOne(t, t.keys.test, externalId, first.json.id, 'after the conflict');
  }, { runs: share(t.runs, 0.08) });
});

ruleTest('IDEM-EXTERNAL-ID-SCOPE', async (t) => {
  const other = t.keys.other_test!;
  const live = t.profile.probes?.live_writes === true ? t.keys.live : undefined;
  if (!live) {
    const why = 'the same external_id in the Live environment needs a Live create: keys.live and probes.live_writes true';
    t.notTried('create.field.external_id#scope-environment', why, ['keys.live', 'probes.live_writes']);
  }
  await t.property(idempotencyBodyFields(), async (fields) => {
    const externalId = t.externalId('exts');
    const body = bodyOf(t, fields, externalId);
    const first = await t.client.createPayment(t.keys.test, body);
    expectStatus(first, 201, 'keys.test, first use of the external_id');
    const b = await t.client.createPayment(other, body);
    expectStatus(b, 201, 'the same external_id in another business (keys.other_test)');
    expectTrue(b.json?.id !== first.json.id, 'another business got the same Payment back', 'a new Payment', b.json?.id);
    if (live) {
      // Plain body for Live: the generated methods/channels might not be receivable there.
      const l = await t.client.createPayment(live, { amount: '10.00', external_id: externalId, metadata: t.metadata() });
      try {
        expectStatus(l, 201, 'the same external_id in the Live environment of the same business (keys.live)');
        expectTrue(l.json?.livemode === true, 'the Live Payment is livemode true', true, l.json?.livemode);
      } finally {
        if (l.status === 201 && l.json?.id) await cancelIfPending(t, live, [l.json.id]);
      }
    }
  }, { runs: share(t.runs, 0.03) });
});
