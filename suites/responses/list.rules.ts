/**
 * esid: Resources and their fields › PaymentList — "object | string, always list | yes; data | array of
 *       Payment | yes; has_more | boolean | yes; next_cursor | string or null | no".
 *
 * Every listPayments answer while driving varied traffic (plain, paged, filtered, under every
 * kind of key) is judged against the PaymentList schema (ambient.ts judges them too).
 */
import { ruleTest } from '../../service/harness/worker/rule-test.ts';
import { expectTrue } from '../../service/harness/worker/expect.ts';
import { validate } from '../../catalogue/schemas/index.ts';
import { describeSeen, driveTraffic } from './traffic.ts';

ruleTest('RESP-LIST-SCHEMA', async (t) => {
  let lists = 0;
  let items = 0;
  await driveTraffic(t, (s) => {
    if (s.op !== 'listPayments' || s.res.status !== 200) return;
    const v = validate('PaymentList', s.res.json);
    expectTrue(v.valid, `${describeSeen(s)} answered 200 with a body that is not a PaymentList: ${v.errors.slice(0, 3).join('; ')}`, 'PaymentList', s.res.json ?? s.res.text.slice(0, 200));
    lists++;
    items += s.res.json.data.length;
  });
  // A last page (has_more false) for sure: the external_id filter of a Payment of this run.
  const externalId = t.externalId('list');
  await t.createPayment({ external_id: externalId });
  const one = await t.client.listPayments(t.keys.test, { external_id: externalId });
  if (one.status === 200) {
    const v = validate('PaymentList', one.json);
    expectTrue(v.valid, `GET /v1/payments?external_id=… answered a body that is not a PaymentList: ${v.errors.slice(0, 3).join('; ')}`, 'PaymentList', one.json);
    lists++;
  }
  // A page that follows a cursor too, when the list has more than one page.
  const first = await t.client.listPayments(t.keys.test, { limit: 2 });
  if (first.status === 200 && first.json?.has_more === true && Array.isArray(first.json.data) && first.json.data.length > 0) {
    const after = first.json.data[first.json.data.length - 1].id;
    const next = await t.client.listPayments(t.keys.test, { limit: 2, starting_after: after });
    if (next.status === 200) {
      const v = validate('PaymentList', next.json);
      expectTrue(v.valid, `GET /v1/payments?starting_after=… answered a body that is not a PaymentList: ${v.errors.slice(0, 3).join('; ')}`, 'PaymentList', next.json);
      lists++;
    }
  }
  t.note(`${lists} PaymentList answers validated (${items} Payments in them)`);
});
