/**
 * esid: Resources and their fields › PaymentList — "data | array of Payment".
 * esid: States and transitions — the transition table (what a status can become).
 * esid: Endpoints › Rules, Rule 1 — "createPayment with the same Idempotency-Key and an identical
 *       body returns the original result".
 *
 * RESP-PAYMENT-VIEWS-AGREE is ambient (service/harness/worker/payment-views.ts compares every view of every
 * Payment the run sees); this test gives it a walk of its own so it runs in any selection: each
 * Payment of a fixed table is shown every way the API shows it (create, replay, GET, list item,
 * status-filtered list item, the action's answer, GET and list after it), and every view is
 * compared with the first. Every status the table reaches is reached on every seed.
 */
import { ruleTest, type RuleContext } from '../../service/harness/worker/rule-test.ts';
import { expectStatus, expectTrue } from '../../service/harness/worker/expect.ts';
import { checkPaymentViews, PaymentViews } from '../../service/harness/worker/payment-views.ts';
import type { ApiResponse } from '../../core/client.ts';

/** The Payments of the walk: every field fixed at creation set or left out, and the transition each then takes. */
const WALK = [
  { title: 'every optional field set, then cancelled', action: 'cancel', body: { amount: '1234.50', description: 'Order 42', merchant_reference: 'INV-42', return_url: 'https://shop.example/done', allowed_methods: ['BKASH', 'NAGAD'], allowed_channels: ['SEND_MONEY', 'CASH_IN'] } },
  { title: 'amount only, then paid (test helper)', action: 'succeed', body: { amount: '7' } },
  { title: 'two decimals and a deep link, then cancelled (test helper)', action: 'helper-cancel', body: { amount: '0.05', return_url: 'myshop://checkout/done', metadata: { order: '7' } } },
] as const;

const ACTION_STATUS = { cancel: 'CANCELLED', succeed: 'PAID', 'helper-cancel': 'CANCELLED' } as const;

ruleTest('RESP-PAYMENT-VIEWS-AGREE', async (t) => {
  const views = new PaymentViews();
  let compared = 0;
  const judge = (res: ApiResponse, what: string) => {
    const findings = checkPaymentViews(views, { method: res.exchange.request.method, path: res.exchange.request.path, sentAt: Date.parse(res.exchange.at), answeredAt: Date.now() }, res, () => compared++);
    expectTrue(findings.length === 0, `${what}: ${findings.map((f) => f.message).join('; ')}`, 'every view agrees with the first', findings.map((f) => f.actual));
  };
  for (const [i, step] of WALK.entries()) await walkOne(t, i, step, judge);
  expectTrue(compared > 0, 'no Payment was shown twice', '> 0 comparisons', compared);
  t.note(`${compared} later views of ${WALK.length} Payments compared with their first`);
}, { inOrder: true });

type Judge = (res: ApiResponse, what: string) => void;

async function walkOne(t: RuleContext, i: number, step: (typeof WALK)[number], judge: Judge): Promise<void> {
  const key = t.keys.test;
  const externalId = t.externalId(`views${i}`);
  const body = { ...step.body, external_id: externalId, metadata: t.metadata('metadata' in step.body ? step.body.metadata : {}) };
  const idem = `${externalId}-idem`;
  const created = await t.client.createPayment(key, body, { idempotencyKey: idem });
  expectStatus(created, 201, `${step.title}: createPayment`);
  judge(created, `${step.title}: createPayment`);
  const id = String(created.json.id);
  const replay = await t.client.createPayment(key, body, { idempotencyKey: idem });
  expectStatus(replay, 201, `${step.title}: the replay`);
  judge(replay, `${step.title}: the replay`);
  await readEveryWay(t, id, externalId, 'PENDING', judge, step.title);
  const acted = await act(t, step.action, id);
  expectStatus(acted, 200, `${step.title}: ${step.action}`);
  judge(acted, `${step.title}: ${step.action}`);
  await readEveryWay(t, id, externalId, ACTION_STATUS[step.action], judge, `${step.title}, after ${step.action}`);
}

function act(t: RuleContext, action: keyof typeof ACTION_STATUS, id: string): Promise<ApiResponse> {
  if (action === 'cancel') return t.client.cancelPayment(t.keys.test, id);
  if (action === 'succeed') return t.client.simulateSucceeded(t.keys.test, id);
  return t.client.simulateCancelled(t.keys.test, id);
}

/** GET, the list by external_id and the list filtered by the status it now has. */
async function readEveryWay(t: RuleContext, id: string, externalId: string, status: string, judge: Judge, what: string): Promise<void> {
  const got = await t.client.getPayment(t.keys.test, id);
  expectStatus(got, 200, `${what}: getPayment`);
  judge(got, `${what}: getPayment`);
  const queries: Array<Record<string, string>> = [{ external_id: externalId }, { external_id: externalId, status }];
  for (const query of queries) {
    const list = await t.client.listPayments(t.keys.test, query);
    expectStatus(list, 200, `${what}: listPayments ${new URLSearchParams(query)}`);
    // Whether the list holds it is LIST-FILTER-*'s to judge; a view it does not hold is simply not compared.
    judge(list, `${what}: listPayments ${new URLSearchParams(query)}`);
  }
}
