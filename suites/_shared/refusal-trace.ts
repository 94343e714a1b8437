/**
 * esid: Endpoints › Rules, Rule 4 — "an `external_id` already used"; Rule 3 — "while a request with
 * that key is still processing"; States and transitions — "(none) | POST /payments | request valid |
 * PENDING"; CreatePaymentRequest — order_id "amount must not exceed the order's remaining due".
 *
 * CREATE-REFUSAL-NO-TRACE's rows (service/generators/cases/refusals.ts): a create refused at
 * validation or at the store checks made no Payment, so it holds nothing. The very next request
 * that would show a trace is sent: a valid create with the refused one's external_id (and its
 * Idempotency-Key on keyed rows), which must be 201; on the order fixture that create is of exactly
 * the remaining due, so a due consumed by the refusal shows too. Every Payment made is cancelled at
 * once (the order fixture is never paid against). The rule runs alone in order-due.rules.ts.
 */
import type { ApiResponse } from '../../core/client.ts';
import type { RuleContext } from '../../service/harness/worker/rule-test.ts';
import { expectStatus } from '../../service/harness/worker/expect.ts';
import { COLLECTION_CHANNELS, PAYMENT_METHODS } from '../../service/generators/create-payment-request.ts';
import { formatCents } from '../../service/generators/amount-between.ts';
import type { RefusalRow } from '../../service/generators/cases/refusals.ts';
import { cancelIfPending, expectExactlyOne } from './by-external-id.ts';
import { outcome } from './valid-request.ts';
import { toCents } from './cents.ts';

/** How a row is provoked: the key, the refused body, the valid body after it, the codes the refusal may carry. */
export interface RefusalPlan {
  readonly key: string;
  readonly refused: Record<string, unknown>;
  readonly valid: Record<string, unknown>;
  readonly codes: readonly string[];
}
type NotTried = { readonly notTried: string };

const PLAIN = { amount: '10.00' };

/** A refusal on the order fixture; the valid create after it is of exactly the remaining due. */
function orderPlan(t: RuleContext, row: RefusalRow): RefusalPlan | NotTried {
  const f = t.profile.fixtures ?? {};
  const order = f.order;
  if (!order) return { notTried: 'the profile has no fixtures.order' };
  const due = toCents(order.remaining_due);
  const given = JSON.stringify(order.remaining_due);
  if (due === null || due < 1n) return { notTried: `fixtures.order.remaining_due is ${given}: no create fits in it` };
  const valid = { amount: order.remaining_due, order_id: order.id, customer_id: order.customer_id };
  const test = t.keys.test;
  const over = { ...valid, amount: formatCents(due + 1n) };
  if (row.code === 'exceeds_order_due') return { key: test, refused: over, valid, codes: [row.code] };
  if (f.customer_id && f.customer_id !== order.customer_id) {
    return { key: test, refused: { ...valid, customer_id: f.customer_id }, valid, codes: [row.code] };
  }
  // Another business's customer breaks two checks: either code is the refusal (ORDER-CUSTOMER-MISMATCH).
  if (f.foreign_customer_id) {
    return { key: test, refused: { ...valid, customer_id: f.foreign_customer_id }, valid, codes: [row.code, 'invalid_customer'] };
  }
  return { notTried: 'no customer other than the order\'s is known (fixtures.customer_id is the order\'s; no foreign_customer_id)' };
}

/** A Live readiness 409 on keys.live (whose business can create): a method or channel live_receiving lacks. */
function livePlan(t: RuleContext, row: RefusalRow): RefusalPlan | NotTried {
  const live = t.keys.live;
  if (!live || t.profile.probes?.live_writes !== true) return { notTried: 'Live creates need keys.live and probes.live_writes true' };
  const receiving = t.profile.live_receiving;
  if (!receiving) return { notTried: 'the profile has no live_receiving: no method or channel is known to be unavailable' };
  const methods = row.code === 'payment_method_unavailable';
  const missing = methods
    ? PAYMENT_METHODS.filter((m) => !receiving.methods.includes(m))
    : COLLECTION_CHANNELS.filter((c) => !receiving.channels.includes(c));
  const field = `live_receiving.${methods ? 'methods' : 'channels'}`;
  if (missing.length === 0) return { notTried: `${field} lists every value: none is unavailable` };
  if (receiving.methods.length === 0) return { notTried: 'live_receiving.methods is empty: payment_detection_not_ready would apply first' };
  return { key: live, refused: { ...PLAIN, [methods ? 'allowed_methods' : 'allowed_channels']: missing }, valid: PLAIN, codes: [row.code] };
}

/** How a row is provoked on this profile, or why it cannot be. */
export function refusalPlan(t: RuleContext, row: RefusalRow): RefusalPlan | NotTried {
  const f = t.profile.fixtures ?? {};
  const plain = (refused: Record<string, unknown>): RefusalPlan => ({ key: t.keys.test, refused, valid: PLAIN, codes: [row.code] });
  switch (row.code) {
    case 'invalid_amount':
      return plain({ amount: '0' });
    case 'invalid_return_url':
      return plain({ ...PLAIN, return_url: 'javascript:alert(1)' });
    case 'invalid_customer':
      return plain({ ...PLAIN, customer_id: f.foreign_customer_id ?? `cus_${t.externalId('nobody')}` });
    case 'order_not_found':
      return plain({ amount: '0.01', order_id: `ord_${t.externalId('none')}` });
    case 'order_cancelled':
      if (!f.cancelled_order_id) return { notTried: 'the profile has no fixtures.cancelled_order_id' };
      return plain({ amount: '0.01', order_id: f.cancelled_order_id });
    case 'order_customer_mismatch':
    case 'exceeds_order_due':
      return orderPlan(t, row);
    default:
      return livePlan(t, row);
  }
}

/** What a refusal of the valid create says was left behind. */
function traceOf(res: ApiResponse): string {
  switch (res.json?.error?.code) {
    case 'external_id_conflict':
      return 'the refused create still holds its external_id (Rule 4 refuses one "already used"; the refused create made no Payment)';
    case 'idempotency_in_progress':
      return 'the refused create\'s Idempotency-Key is still held in progress (Rule 3: only while a request is still processing)';
    case 'exceeds_order_due':
      return 'the refused create consumed the order\'s remaining due';
    default:
      return 'the valid create was refused';
  }
}

/** The valid create after the refusal; with the key first, then (if the key kept the refused result: Rule 2) without. */
async function validAfter(
  t: RuleContext, plan: RefusalPlan, body: Record<string, unknown>, key: string | undefined, made: string[],
): Promise<ApiResponse> {
  const first = await t.client.createPayment(plan.key, body, key ? { idempotencyKey: key } : {});
  if (first.status === 201 && typeof first.json?.id === 'string') made.push(first.json.id);
  if (!key || first.status !== 409 || first.json?.error?.code !== 'idempotency_conflict') return first;
  t.observe('key_after_refusal', 'idempotency_conflict: the target keeps a refused result under its Idempotency-Key (Rule 2)');
  const plain = await t.client.createPayment(plan.key, body);
  if (plain.status === 201 && typeof plain.json?.id === 'string') made.push(plain.json.id);
  return plain;
}

/** One row: provoke the refusal, then the valid create that would meet its trace. */
export async function refusalLeavesNoTrace(t: RuleContext, row: RefusalRow): Promise<NotTried | void> {
  const plan = refusalPlan(t, row);
  if ('notTried' in plan) return plan;
  const externalId = t.externalId('trace');
  const key = row.keyed ? `${externalId}-key` : undefined;
  const made: string[] = [];
  try {
    const opts = key ? { idempotencyKey: key } : {};
    const refused = await t.client.createPayment(plan.key, { ...plan.refused, external_id: externalId, metadata: t.metadata() }, opts);
    if (refused.status === 201 && typeof refused.json?.id === 'string') made.push(refused.json.id);
    if (refused.status !== row.status || !plan.codes.includes(refused.json?.error?.code)) {
      const expected = `${row.status} ${plan.codes.join(' or ')}`;
      return { notTried: `the create was answered ${outcome(refused)}, not ${expected} (its own rule judges that)` };
    }
    const res = await validAfter(t, plan, { ...plan.valid, external_id: externalId, metadata: t.metadata() }, key, made);
    expectStatus(res, 201, `after a create refused ${outcome(refused)}, the valid create with its external_id${key ? ' and key' : ''}` +
      `${res.status === 201 ? '' : ` (${traceOf(res)})`}`);
    await expectExactlyOne(t, plan.key, externalId, res.json.id, 'after the refusal, the valid create');
  } finally {
    await cancelIfPending(t, plan.key, made);
  }
}
