/**
 * esid: States and transitions — "| (none) | POST /payments | request valid | PENDING | event
 *       `payment.created` |"; "A cancel or simulate operation on a Payment that is not PENDING
 *       answers 409 `invalid_transition`."; Event — id "generated once per logical event";
 *       Endpoints › Rules 1 and 2 (a replay returns the original result; a conflict creates nothing).
 *
 * A refused request leaves nothing behind, on the webhook side too: an event is the trace of a
 * transition, and a refused request made none. A fixed table of refused requests, each with its
 * own marker, around one Payment P:
 *  - creates answered 400 (invalid amount, an order_id the business does not have: a refusal at the
 *    store checks, forbidden return_url scheme), 403 (a read-only key), 409
 *    idempotency_conflict (P's Idempotency-Key, another body) and 409 external_id_conflict (P's
 *    external_id): no event carries their marker;
 *  - a replay of P's create (Rule 1): P has exactly one payment.created event id;
 *  - after P is cancelled, cancel and both helpers answered 409: P has exactly one
 *    payment.cancelled event id and no payment.paid.
 * P's own payment.created and payment.cancelled are the positive deliveries; once they arrived, a
 * quiet period (suites/webhooks/timing.ts) passes before the absence of the rest is judged. What
 * arrives later than that is not seen (never a false alarm; a slower phantom event is missed).
 */
import type { ApiResponse } from '../../core/client.ts';
import { ruleTest, type RuleContext } from '../../service/harness/worker/rule-test.ts';
import { Mismatch } from '../../service/harness/worker/expect.ts';
import type { Delivery } from '../../service/sink/index.ts';
import { bodyOf, collect, deliveriesOf, describe, FIRST_DELIVERY_MS, sleep } from '../_shared/deliveries.ts';
import { allTypesEndpoint, hooks, type Hooks } from '../_shared/webhook-hooks.ts';
import { quietMs } from './timing.ts';

/** The metadata key that carries a refused request's marker (every marker is unique to this test). */
const MARK = 'hps_refused';

interface Refusal {
  /** What was refused and how, for evidence. */
  what: string;
  /** The marker its body carried (creates), or null (transitions, judged by event ids of P). */
  marker: string | null;
  res: ApiResponse;
  expected: { status: number; code: string };
}

/** A refusal that was not refused as the spec says is a setup problem of this rule (other rules judge the answer). */
function refusedAsExpected(r: Refusal): boolean {
  return r.res.status === r.expected.status && r.res.json?.error?.code === r.expected.code;
}

async function refusedCreates(t: RuleContext, p: { body: Record<string, unknown>; idem: string }, tag: string): Promise<Refusal[]> {
  const marker = (n: string) => `${tag}-${n}`;
  const body = (n: string, over: Record<string, unknown> = {}) => ({ amount: '100.00', ...over, metadata: t.metadata({ [MARK]: marker(n) }) });
  const out: Refusal[] = [];
  const push = (what: string, n: string, res: ApiResponse, status: number, code: string) => out.push({ what, marker: marker(n), res, expected: { status, code } });
  push('create with amount "0"', 'amount', await t.client.createPayment(t.keys.test, body('amount', { amount: '0' })), 400, 'invalid_amount');
  const unknownOrder = await t.client.createPayment(t.keys.test, body('order', { order_id: `ord_${tag}` }));
  push('create with an order_id the business does not have', 'order', unknownOrder, 400, 'order_not_found');
  push('create with return_url javascript:', 'url', await t.client.createPayment(t.keys.test, body('url', { return_url: 'javascript:alert(1)' })), 400, 'invalid_return_url');
  if (t.keys.test_read_only) push('create with a read-only key', 'scope', await t.client.createPayment(t.keys.test_read_only, body('scope')), 403, 'insufficient_scope');
  push("create with P's Idempotency-Key and another body", 'idem', await t.client.createPayment(t.keys.test, body('idem'), { idempotencyKey: p.idem }), 409, 'idempotency_conflict');
  push("create with P's external_id", 'ext', await t.client.createPayment(t.keys.test, body('ext', { external_id: p.body.external_id })), 409, 'external_id_conflict');
  return out;
}

/** Distinct event ids of one type for one Payment at one endpoint (retries share an id). */
function eventIds(ds: readonly Delivery[], path: string, type: string): string[] {
  return [...new Set(ds.filter((d) => d.path === path && d.event?.type === type && d.event.id).map((d) => d.event!.id))];
}

/** Deliveries to `path` of events whose data.object carries one of the markers. */
async function markedDeliveries(h: Hooks, path: string, markers: ReadonlySet<string>): Promise<Array<{ d: Delivery; marker: string }>> {
  const all = await h.sink.deliveries({ path });
  return all.flatMap((d) => {
    const m = bodyOf(d)?.data?.object?.metadata?.[MARK];
    return typeof m === 'string' && markers.has(m) ? [{ d, marker: m }] : [];
  });
}

ruleTest('HOOK-REFUSED-NO-EVENT', async (t) => {
  const h = hooks(t);
  const endpoint = allTypesEndpoint(h, false);
  if (!endpoint) return t.skip('the profile declares no enabled Test endpoint subscribed to every event type (the reference point of the quiet period)');
  const tag = t.externalId('refused');
  const idem = `${tag}-p`;
  const pBody = { amount: '100.00', external_id: t.externalId('refused'), metadata: t.metadata({ [MARK]: `${tag}-p` }) };
  const sentAt = Date.now();
  const created = await t.client.createPayment(t.keys.test, pBody, { idempotencyKey: idem });
  if (created.status !== 201) throw new Mismatch(`setup: creating P answered ${created.status} ${created.json?.error?.code ?? ''}, expected 201`, { status: 201 }, { status: created.status, body: created.json ?? created.text.slice(0, 200) });
  const p = created.json as { id: string };
  const refusals = await refusedCreates(t, { body: pBody, idem }, tag);
  const replay = await t.client.createPayment(t.keys.test, pBody, { idempotencyKey: idem });
  const cancel = await t.client.cancelPayment(t.keys.test, p.id);
  if (cancel.status !== 200) t.skip(`setup: cancelling P answered ${cancel.status} ${cancel.json?.error?.code ?? ''} (TRANS-CANCEL judges it)`);
  for (const [what, res] of [
    ['cancel of a cancelled Payment', await t.client.cancelPayment(t.keys.test, p.id)],
    ['helper succeed of a cancelled Payment', await t.client.simulateSucceeded(t.keys.test, p.id)],
    ['helper cancel of a cancelled Payment', await t.client.simulateCancelled(t.keys.test, p.id)],
  ] as const) refusals.push({ what, marker: null, res, expected: { status: 409, code: 'invalid_transition' } });
  const judged = refusals.filter(refusedAsExpected);
  const replayed = replay.status === 201 && replay.json?.id === p.id;
  if (judged.length === 0 && !replayed) t.skip('none of the refused requests was answered as the spec says (their own rules judge that): nothing to judge');

  // P's two events are the positive deliveries; then the quiet period.
  const arrived = await collect(h, [p.id], (ds) => eventIds(ds, endpoint.path, 'payment.created').length > 0 && eventIds(ds, endpoint.path, 'payment.cancelled').length > 0, FIRST_DELIVERY_MS);
  if (!arrived.done) t.skip(`P's payment.created and payment.cancelled did not both reach ${endpoint.path} within ${FIRST_DELIVERY_MS} ms (HOOK-EVENT-CREATED / HOOK-EVENT-CANCELLED judge that): no reference point for a quiet period`);
  const latency = Math.max(...arrived.deliveries.map((d) => d.receivedAt - sentAt));
  await sleep(quietMs(latency));

  const problems: string[] = [];
  const markers = new Set(judged.flatMap((r) => (r.marker ? [r.marker] : [])));
  for (const { d, marker } of await markedDeliveries(h, endpoint.path, markers)) {
    const r = judged.find((x) => x.marker === marker)!;
    problems.push(`${describe(d)}: an event for "${r.what}", answered ${r.res.status} ${r.expected.code}`);
  }
  const ds = await deliveriesOf(h, [p.id]);
  const createdIds = eventIds(ds, endpoint.path, 'payment.created');
  if (replayed && createdIds.length > 1) problems.push(`P (${p.id}) has ${createdIds.length} payment.created events (${createdIds.join(', ')}) after a replay of its create (Rule 1: a replay returns the original result; an event id is generated once per logical event)`);
  const transitions = judged.filter((r) => r.marker === null);
  if (transitions.length) {
    const cancelled = eventIds(ds, endpoint.path, 'payment.cancelled');
    const paid = eventIds(ds, endpoint.path, 'payment.paid');
    if (cancelled.length > 1) problems.push(`P (${p.id}) has ${cancelled.length} payment.cancelled events (${cancelled.join(', ')}) after one cancel and ${transitions.length} refused transition(s)`);
    if (paid.length) problems.push(`P (${p.id}) got payment.paid (${paid.join(', ')}) though the helper succeed was refused 409`);
  }
  t.checked(judged.length + (replayed ? 1 : 0));
  if (problems.length) throw new Mismatch(`refused requests left events behind: ${problems.join('; ')}`, { events: 'none for a refused request' }, problems);
  const skipped = refusals.filter((r) => !refusedAsExpected(r)).map((r) => `${r.what} (answered ${r.res.status})`);
  t.note(`${judged.length} refused request(s)${replayed ? ' and a replay' : ''} left no event at ${endpoint.path} after a ${quietMs(latency)} ms quiet period${skipped.length ? `; not judged, not refused as the spec says: ${skipped.join(', ')}` : ''}`);
}, { timeout: 120_000 });
