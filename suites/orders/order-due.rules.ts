/**
 * esid: Resources and their fields › CreatePaymentRequest — "order_id: ... amount must not exceed
 * the order's remaining due"; Errors — "exceeds_order_due 400".
 * Amounts are compared as decimals (BigInt cents). The order fixture is never paid: a Payment
 * created within the due is cancelled at once, so the fixture's remaining due never changes.
 * CREATE-REFUSAL-NO-TRACE (refusal-trace.ts) is here too, alone: its creates of the whole remaining
 * due must not meet ORDER-WITHIN-DUE's PENDING Payments (a target may hold PENDING ones against the due).
 */
import fc from 'fast-check';
import { ruleTest, type RuleContext } from '../../service/harness/worker/rule-test.ts';
import { decimalEquals, expectEqual, expectError, expectStatus, expectTrue } from '../../service/harness/worker/expect.ts';
import { cancelIfPending, expectNothingCreated } from '../_shared/by-external-id.ts';
import { amountBetween, formatCents } from '../../service/generators/amount-between.ts';
import { toCents } from '../_shared/cents.ts';
import { share } from '../../service/harness/worker/depth.ts';
import { REFUSAL_TRACE_CASES } from '../../service/generators/cases/refusals.ts';
import { refusalLeavesNoTrace } from '../_shared/refusal-trace.ts';

function orderOf(t: RuleContext) {
  const order = t.profile.fixtures!.order!;
  const due = toCents(order.remaining_due);
  if (due === null) t.skip(`fixtures.order.remaining_due ${JSON.stringify(order.remaining_due)} is not a decimal amount`);
  return { order, due };
}

ruleTest('ORDER-EXCEEDS-DUE', async (t) => {
  const { order, due } = orderOf(t);
  const check = async ([amount, withCustomer]: [string, boolean]) => {
    const externalId = t.externalId('due');
    const body: Record<string, unknown> = { amount, order_id: order.id, external_id: externalId, metadata: t.metadata() };
    if (withCustomer) body.customer_id = order.customer_id;
    const res = await t.client.createPayment(t.keys.test, body);
    if (res.status === 201 && res.json?.id) await cancelIfPending(t, t.keys.test, [res.json.id]);
    expectError(res, 400, ['exceeds_order_due'], `amount ${amount} above the remaining due ${order.remaining_due}`);
    await expectNothingCreated(t, t.keys.test, externalId, 'amount above the due');
  };
  // One cent above the due first, whatever the seed draws.
  await check([formatCents(due + 1n), true]);
  const above = fc.oneof(
    amountBetween(due + 1n, due + 100n),
    amountBetween(due + 1n, due * 10n + 100_000_000n),
  );
  await t.property(fc.tuple(above, fc.boolean()), check, { runs: share(t.runs, 0.06) });
});

ruleTest('ORDER-WITHIN-DUE', async (t) => {
  const { order, due } = orderOf(t);
  if (due < 1n) t.skip(`fixtures.order.remaining_due is ${order.remaining_due}: no positive amount is within it`);
  const check = async (amount: string) => {
    const res = await t.client.createPayment(t.keys.test, {
      amount, order_id: order.id, customer_id: order.customer_id, external_id: t.externalId('due'), metadata: t.metadata(),
    });
    // Never leave a Payment on the order fixture: cancel before judging.
    if (res.status === 201 && res.json?.id) await cancelIfPending(t, t.keys.test, [res.json.id]);
    expectStatus(res, 201, `amount ${amount} within the remaining due ${order.remaining_due}`);
    expectEqual(res.json?.status, 'PENDING', 'status of the created Payment');
    expectTrue(decimalEquals(res.json?.amount, amount), `amount came back ${JSON.stringify(res.json?.amount)} for ${amount}`, amount, res.json?.amount);
  };
  // Exactly the remaining due, and the smallest amount, whatever the seed draws.
  await check(order.remaining_due);
  await check('0.01');
  await t.property(amountBetween(1n, due), check, { runs: share(t.runs, 0.05) });
});

ruleTest('CREATE-REFUSAL-NO-TRACE', async (t) => {
  // One row at a time: two creates of the whole remaining due must never be PENDING together.
  await t.cases(REFUSAL_TRACE_CASES, (row) => refusalLeavesNoTrace(t, row), { concurrency: 1 });
}, { inOrder: true });
