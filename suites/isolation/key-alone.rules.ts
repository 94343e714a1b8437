/**
 * esid: Authentication — "A key is bound to one business and alone determines the business and
 * the environment of a request. No X-Business-ID header is used."
 * An X-Business-ID header, whatever its value, changes neither where a Payment is created nor
 * who can see it; a header claiming the other environment changes neither its environment nor
 * who can read it.
 */
import fc from 'fast-check';
import { ruleTest } from '../../service/harness/worker/rule-test.ts';
import { expectEqual, expectError, expectStatus } from '../../service/harness/worker/expect.ts';
import { listByExternalId } from '../_shared/by-external-id.ts';
import { share } from '../../service/harness/worker/depth.ts';

ruleTest('ISO-KEY-ALONE', async (t) => {
  const values = fc.oneof(
    fc.stringMatching(/^biz_[A-Za-z0-9]{6,24}$/),
    fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
  );
  await t.property(values, async (businessId) => {
    const headers = { 'x-business-id': businessId };
    const externalId = t.externalId('kal');
    const created = await t.client.createPayment(t.keys.test, { amount: '10.00', external_id: externalId, metadata: t.metadata() }, { headers });
    expectStatus(created, 201, `create with X-Business-ID ${JSON.stringify(businessId)}`);
    expectEqual(created.json?.livemode, false, 'livemode of a Payment created with keys.test');
    // Created in the key's business: keys.test finds it without the header, and with it.
    const plain = await t.client.getPayment(t.keys.test, created.json.id);
    expectStatus(plain, 200, 'keys.test reading it without the header');
    const withHeader = await t.client.request({ method: 'GET', path: `/v1/payments/${encodeURIComponent(created.json.id)}`, key: t.keys.test, headers });
    expectStatus(withHeader, 200, 'keys.test reading it with the header');
    expectEqual((await listByExternalId(t, t.keys.test, externalId)).map((p) => p.id), [created.json.id], 'keys.test listing its external_id');
    if (t.keys.other_test) {
      const foreign = await t.client.request({ method: 'GET', path: `/v1/payments/${encodeURIComponent(created.json.id)}`, key: t.keys.other_test, headers });
      expectError(foreign, 404, ['payment_not_found'], 'keys.other_test reading it with the same X-Business-ID header');
    }
  }, { runs: share(t.runs, 0.06) });

  // The key alone determines the environment: a header claiming the other one changes nothing (fixed, every seed).
  for (const headers of ENVIRONMENT_CLAIMS) {
    const claim = Object.entries(headers).map(([name, value]) => `${name}: ${value}`).join(', ');
    const body = { amount: '10.00', external_id: t.externalId('kae'), metadata: t.metadata() };
    const created = await t.client.createPayment(t.keys.test, body, { headers });
    expectStatus(created, 201, `create with keys.test and ${claim}`);
    expectEqual(created.json?.livemode, false, `livemode of a Payment created with keys.test and ${claim}`);
    const plain = await t.client.getPayment(t.keys.test, created.json.id);
    expectStatus(plain, 200, `keys.test reading, without the header, the Payment it created with ${claim}`);
    const path = `/v1/payments/${encodeURIComponent(created.json.id)}`;
    const withHeader = await t.client.request({ method: 'GET', path, key: t.keys.test, headers });
    expectStatus(withHeader, 200, `keys.test reading it with ${claim}`);
    expectEqual(withHeader.json?.livemode, false, `livemode read with keys.test and ${claim}`);
  }
});

/** Headers a service might read as the environment of a request; the key alone decides it. */
const ENVIRONMENT_CLAIMS: ReadonlyArray<Readonly<Record<string, string>>> = [{ 'x-environment': 'live' }, { 'x-livemode': 'true' }];
