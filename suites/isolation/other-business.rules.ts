/**
 * esid: Endpoints › Rules, Rule 5 — "getPayment, cancelPayment and the test helpers answer 404
 * payment_not_found when the id does not exist for the key's business and environment, including
 * a Payment of another business." Another business never lists it either.
 */
import fc from 'fast-check';
import { ruleTest, type RuleContext } from '../../service/harness/worker/rule-test.ts';
import type { ApiResponse } from '../../core/client.ts';
import { expectEqual, expectError, expectStatus } from '../../service/harness/worker/expect.ts';
import { listByExternalId } from '../_shared/by-external-id.ts';
import { liveSubject, testPayment, type TestState } from './subjects.ts';
import { share } from '../../service/harness/worker/depth.ts';

type Op = 'getPayment' | 'cancelPayment' | 'simulatePaymentSucceeded' | 'simulatePaymentCancelled';
const ops = fc.constantFrom<Op>('getPayment', 'cancelPayment', 'simulatePaymentSucceeded', 'simulatePaymentCancelled');

function send(t: RuleContext, op: Op, key: string, id: string): Promise<ApiResponse> {
  switch (op) {
    case 'getPayment': return t.client.getPayment(key, id);
    case 'cancelPayment': return t.client.cancelPayment(key, id);
    case 'simulatePaymentSucceeded': return t.client.simulateSucceeded(key, id);
    case 'simulatePaymentCancelled': return t.client.simulateCancelled(key, id);
  }
}

ruleTest('ISO-OTHER-BUSINESS', async (t) => {
  const other = t.keys.other_test!;
  // Business A's Payments in each state, probed with business B's key; and the reverse.
  const mine: Record<TestState, any> = {
    PENDING: await testPayment(t, 'PENDING'),
    PAID: await testPayment(t, 'PAID'),
    CANCELLED: await testPayment(t, 'CANCELLED'),
  };
  const theirs = await testPayment(t, 'PENDING', other);
  const cases = fc.tuple(ops, fc.constantFrom<TestState>('PENDING', 'PAID', 'CANCELLED'), fc.boolean());
  await t.property(cases, async ([op, state, reverse]) => {
    const [key, owner, p, who] = reverse
      ? [t.keys.test, other, theirs, 'keys.test on business B\'s PENDING Payment']
      : [other, t.keys.test, mine[state], `keys.other_test on business A's ${state} Payment`];
    const res = await send(t, op, key, p.id);
    expectError(res, 404, ['payment_not_found'], `${op}: ${who}`);
    const after = await t.client.getPayment(owner, p.id);
    expectStatus(after, 200, 'reading the Payment back with its own business\'s key');
    expectEqual(after.json?.status, p.status, `status after ${op} by the other business`);
  }, { runs: share(t.runs, 0.12) });
  for (const p of Object.values(mine)) {
    const listed = await listByExternalId(t, other, p.external_id);
    expectEqual(listed.map((x) => x.id), [], `keys.other_test listing business A's external_id ${p.external_id}`);
  }
  // Live side: business B's Live key reading business A's Live Payment (reads only).
  if (t.keys.other_live && t.keys.live) {
    const subject = await liveSubject(t, false);
    if (typeof subject === 'string') t.note(`Live side not probed: ${subject}`);
    else {
      try {
        const res = await t.client.getPayment(t.keys.other_live, subject.payment.id);
        expectError(res, 404, ['payment_not_found'], 'keys.other_live reading business A\'s Live Payment');
      } finally {
        await subject.release();
      }
    }
  } else t.note('Live side not probed: it needs keys.other_live and keys.live');
});
