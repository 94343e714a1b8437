/**
 * esid: States and transitions — "(none) | POST /payments | request valid | PENDING";
 *       Endpoints — "201 Payment (status PENDING, with checkout_url)".
 * A created Payment is PENDING with created_at a date-time and neither paid_at nor
 * cancelled_at set, and a later get agrees.
 */
import { ruleTest } from '../../service/harness/worker/rule-test.ts';
import { expectStatus, expectTrue } from '../../service/harness/worker/expect.ts';
import { pendingBody } from '../../service/generators/pending-body.ts';
import { expectSameInstant, expectTimestampsOfState, getOk } from './states.ts';
import { share } from '../../service/harness/worker/depth.ts';

ruleTest('TRANS-CREATE-PENDING', async (t) => {
  await t.property(pendingBody(), async (body) => {
    const res = await t.client.createPayment(t.keys.test, { ...body, external_id: t.externalId('tp'), metadata: t.metadata() });
    expectStatus(res, 201, 'createPayment with a valid body');
    const p = res.json;
    expectTrue(p?.status === 'PENDING', `createPayment answered status ${JSON.stringify(p?.status)}, expected PENDING`, 'PENDING', p?.status);
    expectTimestampsOfState(p, 'createPayment 201');
    const g = await getOk(t, p.id, 'get after create');
    expectTrue(g?.id === p.id, `get of ${p.id} after create answered the Payment ${JSON.stringify(g?.id)}`, p.id, g?.id);
    expectTrue(g?.status === 'PENDING', `get after create reads ${JSON.stringify(g?.status)}, expected PENDING`, 'PENDING', g?.status);
    expectTimestampsOfState(g, 'get after create');
    expectSameInstant(g.created_at, p.created_at, 'created_at of the get vs the 201');
  }, { runs: share(t.runs, 0.12) });
});
