/**
 * esid: States and transitions —
 *   "PENDING | POST /payments/{id}/cancel | status is PENDING | CANCELLED | … cancelled_at is set …"
 *   "PENDING | POST /test_helpers/payments/{id}/succeed | Test key, livemode: false Payment | PAID"
 *   "PENDING | POST /test_helpers/payments/{id}/cancel | Test key, livemode: false Payment | CANCELLED"
 *
 * Each legal move, from a PENDING Payment created with a random valid body, answers 200 with
 * the target status and the timestamp the state implies (a date-time not before created_at, the
 * other one not set); a later get agrees, instant for instant.
 */
import { ruleTest } from '../../service/harness/worker/rule-test.ts';
import type { RuleContext } from '../../service/harness/worker/rule-test.ts';
import { expectStatus, expectTrue } from '../../service/harness/worker/expect.ts';
import { pendingBody } from '../../service/generators/pending-body.ts';
import { act, ACTION_TARGET, expectSameInstant, expectTimestampsOfState, getOk, type Action } from './states.ts';
import { share } from '../../service/harness/worker/depth.ts';

async function legalMove(t: RuleContext, action: Action): Promise<void> {
  const to = ACTION_TARGET[action];
  await t.property(pendingBody(), async (body) => {
    const p = await t.createPayment(body);
    const res = await act(t, action, p.id);
    expectStatus(res, 200, `${action} on a PENDING Payment`);
    const moved = res.json;
    expectTrue(moved?.id === p.id, `${action} answered Payment ${JSON.stringify(moved?.id)}, expected ${p.id}`, p.id, moved?.id);
    expectTrue(moved?.status === to, `${action} on a PENDING Payment answered status ${JSON.stringify(moved?.status)}, expected ${to}`, to, moved?.status);
    expectTimestampsOfState(moved, `${action} 200`);
    expectSameInstant(moved.created_at, p.created_at, `${action}: created_at vs the 201's`);
    const g = await getOk(t, p.id, `get after ${action}`);
    expectTrue(g?.status === to, `get after ${action} reads ${JSON.stringify(g?.status)}, expected ${to}`, to, g?.status);
    expectTimestampsOfState(g, `get after ${action}`);
    expectSameInstant(g.paid_at, moved.paid_at, `get after ${action}: paid_at vs the 200's`);
    expectSameInstant(g.cancelled_at, moved.cancelled_at, `get after ${action}: cancelled_at vs the 200's`);
    expectSameInstant(g.created_at, p.created_at, `get after ${action}: created_at vs the 201's`);
  }, { runs: share(t.runs, 0.1) });
}

ruleTest('TRANS-CANCEL', async (t) => {
  await legalMove(t, 'cancelPayment');
  // cancelPayment works in either environment: a Live one too, when Live writes are allowed.
  if (t.keys.live && t.profile.probes?.live_writes === true) {
    const p = await t.createPayment({ amount: '12.00' }, t.keys.live);
    const res = await t.client.cancelPayment(t.keys.live, p.id);
    expectStatus(res, 200, 'cancelPayment on a PENDING Live Payment');
    expectTrue(res.json?.status === 'CANCELLED', `cancelPayment on a PENDING Live Payment answered status ${JSON.stringify(res.json?.status)}`, 'CANCELLED', res.json?.status);
    expectTimestampsOfState(res.json, 'cancelPayment 200 (Live)');
    const g = await t.client.getPayment(t.keys.live, p.id);
    expectStatus(g, 200, 'get after cancelPayment (Live)');
    expectTrue(g.json?.status === 'CANCELLED', `get after cancelPayment (Live) reads ${JSON.stringify(g.json?.status)}`, 'CANCELLED', g.json?.status);
    expectSameInstant(g.json?.cancelled_at, res.json.cancelled_at, 'get after cancelPayment (Live): cancelled_at vs the 200\'s');
    t.note('a Live Payment was cancelled too (probes.live_writes)');
  }
});

ruleTest('TRANS-HELPER-SUCCEED', async (t) => {
  await legalMove(t, 'simulatePaymentSucceeded');
});

ruleTest('TRANS-HELPER-CANCEL', async (t) => {
  await legalMove(t, 'simulatePaymentCancelled');
});
