/**
 * esid: Events › Endpoints and routing — "A Test Payment (`livemode: false`) is delivered to Test
 *       endpoints only; a Live Payment to Live endpoints only." "A disabled endpoint receives nothing
 *       new." Endpoints › Receiver operation — "The service sends POST requests with an Event body
 *       (JSON) to each enabled endpoint subscribed to the event type, in the same environment."
 *       Events › Delivery rules 3-4 — "Delivery is at least once." "Arrival order is not guaranteed."
 *       Events › Event types — endpoint.test: "the dashboard action Send test event is used; Test
 *       endpoints only; synthetic, non-financial", no Payment.
 *
 * One traffic serves the routing rules of this file (it runs once, for the first of them selected):
 * every event type on Test Payments (one with failing first attempts), and a Live Payment when
 * `probes.live_writes`. The positive deliveries are awaited (each expected event acknowledged by
 * every enabled, same-environment, subscribed endpoint), then a quiet period — three times the
 * slowest delivery latency seen, between 1 s and 3 s: a misrouted copy goes out with the right one —
 * and only then are the negative rules judged on everything the sink got for these Payments.
 */
import { ruleTest, type RuleContext } from '../../service/harness/worker/rule-test.ts';
import { Mismatch, expectTrue } from '../../service/harness/worker/expect.ts';
import { validate } from '../../catalogue/schemas/index.ts';
import type { Delivery } from '../../service/sink/index.ts';
import { deliveriesFor, expectedDeliveries, type Expected } from '../_shared/arrivals.ts';
import { bodyOf, collect, deliveriesOf, describe, evidenceOf, FIRST_DELIVERY_MS, sleep } from '../_shared/deliveries.ts';
import { controlRequest, tell, type Story } from '../_shared/stories.ts';
import { allTypesEndpoint, endpointAt, hooks, liveWrites, type Hooks } from '../_shared/webhook-hooks.ts';
import { RETRY_MARGIN_MS } from './limits.ts';
import { quietMs, scaledGapMs } from './timing.ts';
import { runShared } from '../../service/harness/worker/run-scoped.ts';
import { PaymentViews } from '../../service/harness/worker/payment-views.ts';
import { inOrder } from '../../service/harness/worker/batch.ts';

interface Traffic {
  stories: Story[];
  expected: Expected[];
  /** Expected (event, endpoint) pairs that no acknowledged delivery covered within the bound. */
  unacked: Expected[];
  quietMs: number;
  /** Everything the sink got for these Payments after the quiet period. */
  deliveries: Delivery[];
}

const acked = (d: Delivery) => d.answer.kind === 'status' && d.answer.status >= 200 && d.answer.status <= 299;

const shared = runShared<Traffic>();

/** The file's traffic, caused once (by the first routing test that runs). */
function traffic(t: RuleContext, h: Hooks): Promise<Traffic> {
  return shared.get(async () => {
    // Each story is a Payment of its own, its operations in order; the stories side by side.
    const stories: Story[] = await Promise.all([
      tell(t, { ops: ['cancel'] }),
      tell(t, { ops: t.profile.control ? ['succeed', 'reverse'] : ['succeed'] }),
      tell(t, { ops: ['helper-cancel'] }),
      // First attempts of both events fail once: delivered all the same, by the retry.
      tell(t, { ops: ['succeed'], sink: 'fail:503x1' }),
    ]);
    if (liveWrites(t) && h.endpoints.some((e) => e.livemode && e.enabled)) stories.push(await tell(t, { live: true, ops: ['cancel'] }));
    const expected = expectedDeliveries(h, stories);
    const unackedIn = (ds: Delivery[]) => expected.filter((x) => !deliveriesFor(ds, x).some(acked));
    const bound = FIRST_DELIVERY_MS + scaledGapMs(h, 1) + RETRY_MARGIN_MS;
    const { deliveries } = await collect(h, stories.map((s) => s.paymentId), (ds) => unackedIn(ds).length === 0, bound);
    let latency = 0;
    for (const x of expected) {
      const first = deliveriesFor(deliveries, x)[0];
      if (first) latency = Math.max(latency, first.receivedAt - x.emitted.sentAt);
    }
    const quiet = quietMs(latency);
    await sleep(quiet);
    const after = await deliveriesOf(h, stories.map((s) => s.paymentId));
    return { stories, expected, unacked: unackedIn(after), quietMs: quiet, deliveries: after };
  });
}

function storyOf(tr: Traffic, d: Delivery): Story | undefined {
  return tr.stories.find((s) => s.paymentId === d.event?.paymentId);
}

/** Why a routing rule is SKIP when nothing arrived: a rule about where deliveries go saw none (HOOK-AT-LEAST-ONCE fails then). */
const NONE_OBSERVED = '0 deliveries observed for this rule';

ruleTest('HOOK-ROUTE-ENVIRONMENT', async (t) => {
  const h = hooks(t);
  const envs = new Set(h.endpoints.map((e) => e.livemode));
  if (!envs.has(true)) t.skip('the profile declares no Live endpoint: a Test event has no wrong environment to reach');
  const tr = await traffic(t, h);
  if (tr.deliveries.length === 0) t.skip(NONE_OBSERVED);
  for (const d of tr.deliveries) {
    const story = storyOf(tr, d);
    const endpoint = endpointAt(h, d.path);
    if (!story || !endpoint) continue;
    t.checked();
    if (endpoint.livemode !== story.livemode) {
      throw new Mismatch(
        `${describe(d)}: a ${story.livemode ? 'Live' : 'Test'} Payment's event reached the ${endpoint.livemode ? 'Live' : 'Test'} endpoint ${d.path}`,
        { livemode: story.livemode, endpoints: h.endpoints.filter((e) => e.livemode === story.livemode).map((e) => e.path) },
        evidenceOf(d),
      );
    }
  }
  const live = tr.stories.some((s) => s.livemode);
  if (!live) t.notTried('routing.environment#live', 'no Live Payment made events (probes.live_writes is off)', ['probes.live_writes']);
  t.note(`${tr.deliveries.length} deliveries after a ${tr.quietMs} ms quiet period: Test events at Test endpoints only${live ? ', Live events at Live endpoints only' : ' (no Live Payment: probes.live_writes is off)'}`);
});

ruleTest('HOOK-ROUTE-SUBSCRIPTION', async (t) => {
  const h = hooks(t);
  const filtered = h.endpoints.filter((e) => e.events !== '*');
  if (filtered.length === 0) t.skip('the profile declares no endpoint subscribed to a list of event types');
  const tr = await traffic(t, h);
  if (tr.deliveries.length === 0) t.skip(NONE_OBSERVED);
  for (const d of tr.deliveries) {
    const endpoint = endpointAt(h, d.path);
    if (!endpoint || endpoint.events === '*' || !d.event) continue;
    t.checked();
    if (!endpoint.events.includes(d.event.type ?? '')) {
      throw new Mismatch(`${describe(d)}: ${d.path} is subscribed to ${endpoint.events.join(', ')} only`, { path: d.path, events: endpoint.events }, evidenceOf(d));
    }
  }
  const types = new Set(tr.stories.flatMap((s) => s.emitted.map((e) => e.type)));
  t.note(`events ${[...types].join(', ')}; ${filtered.map((e) => `${e.path} (${(e.events as string[]).join(', ')})`).join(', ')} got only their types, after a ${tr.quietMs} ms quiet period`);
});

ruleTest('HOOK-ROUTE-DISABLED', async (t) => {
  const h = hooks(t);
  const disabled = h.endpoints.filter((e) => !e.enabled);
  if (disabled.length === 0) t.skip('the profile declares no disabled endpoint (enabled: false)');
  const tr = await traffic(t, h);
  if (tr.deliveries.length === 0) t.skip(NONE_OBSERVED);
  for (const d of tr.deliveries) {
    const endpoint = endpointAt(h, d.path);
    if (endpoint) t.checked();
    if (endpoint && !endpoint.enabled) {
      throw new Mismatch(`${describe(d)}: ${d.path} is disabled and must receive nothing`, { path: d.path, deliveries: 0 }, evidenceOf(d));
    }
  }
  t.note(`${disabled.map((e) => e.path).join(', ')} received none of ${tr.deliveries.length} deliveries, after a ${tr.quietMs} ms quiet period`);
});

ruleTest('HOOK-AT-LEAST-ONCE', async (t) => {
  const h = hooks(t);
  const tr = await traffic(t, h);
  if (tr.expected.length === 0) t.skip('the profile declares no enabled endpoint subscribed to these events');
  t.checked(tr.expected.length);
  if (tr.unacked.length) {
    const m = tr.unacked.slice(0, 6).map((x) => {
      const got = deliveriesFor(tr.deliveries, x);
      return `${x.emitted.type} of ${x.emitted.paymentId} at ${x.endpoint.path}: ${got.length ? `${got.length} attempt(s), none acknowledged (answers ${got.map((d) => (d.answer.kind === 'status' ? d.answer.status : d.answer.kind)).join(', ')}${got[0]?.problem ? `; sink: ${got[0].problem}` : ''})` : 'never delivered'}`;
    });
    throw new Mismatch(`${tr.unacked.length} of ${tr.expected.length} (event, endpoint) pairs were not delivered: ${m.join('; ')}`, tr.unacked.length === 0, m);
  }
  t.note(`${tr.expected.length} (event, endpoint) pairs each acknowledged at least once (one Payment's first attempts failed and were retried)`);
});

ruleTest('HOOK-ARRIVAL-ORDER', async (t) => {
  const h = hooks(t);
  const tr = await traffic(t, h);
  const outOfOrder: string[] = [];
  let judged = 0;
  for (const s of tr.stories) {
    const endpoint = allTypesEndpoint(h, s.livemode);
    if (!endpoint || s.emitted.length < 2) continue;
    const firsts: string[] = [];
    for (const d of tr.deliveries) {
      if (d.path !== endpoint.path || d.event?.paymentId !== s.paymentId || !d.event.type) continue;
      if (!firsts.includes(d.event.type)) firsts.push(d.event.type);
    }
    const caused = [...new Set(s.emitted.map((e) => e.type))];
    judged++;
    if (firsts.join(' ') !== caused.join(' ')) outOfOrder.push(`${s.paymentId}: caused ${caused.join(' → ')}, first arrivals ${firsts.join(' → ')}`);
  }
  t.observe('payments_judged', judged);
  t.observe('arrived_in_causal_order', judged - outOfOrder.length);
  if (outOfOrder.length) t.observe('out_of_order', outOfOrder);
  t.note(`${judged - outOfOrder.length} of ${judged} Payments' events reached the "*" endpoint in the order they happened (not guaranteed by the spec)`);
});

ruleTest('HOOK-ENDPOINT-TEST', async (t) => {
  const h = hooks(t);
  const target = allTypesEndpoint(h, false) ?? h.endpoints.find((e) => e.enabled && !e.livemode);
  if (!target) return t.skip('the profile declares no enabled Test endpoint');
  const testEvents = () => h.sink.deliveries({ eventType: 'endpoint.test' });
  const mark = Math.max(0, ...(await testEvents()).map((d) => d.seq));
  const sentAt = Date.now();
  const res = await controlRequest(t, 'POST', '/endpoints/test', { path: target.path });
  expectTrue(res.status === 202, `POST {control.url}/endpoints/test for ${target.path} answered ${res.status}, expected 202`, 202, { status: res.status, body: res.json ?? res.text.slice(0, 200) });
  const eventId: string | undefined = typeof res.json?.event_id === 'string' ? res.json.event_id : undefined;
  const mine = (d: Delivery) => d.seq > mark && (eventId === undefined || d.event?.id === eventId);

  // A Live endpoint is refused (PROFILE: 400); that nothing reaches it is judged after the quiet period below.
  const lives = h.endpoints.filter((e) => e.livemode);
  for (const live of lives) {
    const r = await controlRequest(t, 'POST', '/endpoints/test', { path: live.path });
    expectTrue(r.status === 400, `Send test event to the Live endpoint ${live.path} answered ${r.status}, expected 400 (Test endpoints only)`, 400, { status: r.status, body: r.json ?? r.text.slice(0, 200) });
  }

  // It arrives at the endpoint asked for ...
  const deadline = Date.now() + FIRST_DELIVERY_MS;
  let seen: Delivery[] = [];
  for (let poll = 0; poll < FIRST_DELIVERY_MS / 50 + 2; poll++) {
    seen = (await testEvents()).filter(mine);
    if (seen.some((d) => d.path === target.path) || Date.now() > deadline) break;
    await sleep(50);
  }
  const atTarget = seen.filter((d) => d.path === target.path);
  expectTrue(atTarget.length > 0, `no endpoint.test event reached ${target.path} within ${FIRST_DELIVERY_MS / 1000} s of the 202`, { path: target.path, type: 'endpoint.test' }, seen.map(describe));
  const d = atTarget[0]!;
  const body = bodyOf(d);
  expectTrue(body?.type === 'endpoint.test', `${describe(d)}: type ${JSON.stringify(body?.type)}`, 'endpoint.test', body?.type);
  expectTrue(body.livemode === false, `${describe(d)}: livemode ${JSON.stringify(body.livemode)}, expected false (Test endpoints only)`, false, body.livemode);
  const object = body.data?.object;
  expectTrue(
    object === undefined || object === null || typeof object !== 'object' || (object.object !== 'payment' && !validate('Payment', object).valid),
    `${describe(d)}: data.object is a Payment; endpoint.test is synthetic and carries no Payment`,
    'no Payment',
    object,
  );
  if (eventId !== undefined) {
    const ids = new Set(atTarget.map((x) => x.event?.id));
    expectTrue(ids.size === 1, `the 202 named event ${eventId}, ${ids.size} events arrived`, 1, [...ids]);
  }

  // ... and nowhere else (after a quiet period); no endpoint.test at all reaches a Live endpoint.
  await sleep(quietMs(d.receivedAt - sentAt));
  const after = await testEvents();
  const elsewhere = after.filter((x) => mine(x) && x.path !== target.path);
  if (elsewhere.length) {
    throw new Mismatch(`the test event for ${target.path} also reached ${[...new Set(elsewhere.map((x) => x.path))].join(', ')}`, { paths: [target.path] }, elsewhere.map(evidenceOf));
  }
  const atLive = after.filter((x) => x.seq > mark && lives.some((e) => e.path === x.path));
  if (atLive.length) throw new Mismatch(`an endpoint.test event reached the Live endpoint ${atLive[0]!.path}`, { deliveries: 0 }, atLive.map(evidenceOf));
  t.note(`one endpoint.test event (${d.event?.id}) reached ${target.path} only${lives.length ? '; Live endpoints were refused with 400 and got nothing' : ''}`);
});

/**
 * Identity across attempts and events (HOOK-ONE-EVENT-PER-TRANSITION): each transition of a
 * Payment happens once, so at each endpoint it is one logical event, whatever number of attempts
 * carried it: one event id and one body. An event id never stands for two (Payment, type) pairs.
 */
class IdentityLedger {
  private readonly byTransition = new Map<string, { ids: Set<string>; bodies: Set<string> }>();
  private readonly byId = new Map<string, string>();
  private readonly found: string[] = [];

  add(d: Delivery): void {
    const e = d.event;
    if (!e?.paymentId || !e.type || !e.id) return;
    const key = `${d.path} ${e.paymentId} ${e.type}`;
    const g = this.byTransition.get(key) ?? { ids: new Set<string>(), bodies: new Set<string>() };
    g.ids.add(e.id);
    g.bodies.add(d.bodySha256 ?? '(no body)');
    this.byTransition.set(key, g);
    const pair = `${e.paymentId} ${e.type}`;
    const had = this.byId.get(e.id);
    if (had !== undefined && had !== pair) this.found.push(`event id ${e.id} stands for ${had} and for ${pair}`);
    this.byId.set(e.id, pair);
  }

  /** (endpoint, Payment, event type) transitions seen. */
  get transitions(): number {
    return this.byTransition.size;
  }

  problems(): string[] {
    const out = [...this.found];
    for (const [key, g] of this.byTransition) {
      if (g.ids.size > 1) out.push(`${key}: ${g.ids.size} event ids for one transition (${[...g.ids].slice(0, 3).join(', ')})`);
      else if (g.bodies.size > 1) out.push(`${key}: event ${[...g.ids][0]} delivered with ${g.bodies.size} different bodies`);
    }
    return out;
  }
}

/** Deliveries read from the sink at a time, and pages at most (the sink keeps 20 000 by default). */
const PAGE = 250;
const MAX_PAGES = 400;

/** Payments read back after their events, at most; past it the rest are named unread. */
const MAX_READ_BACK = 300;
/** Read-backs in flight at once. */
const READ_BACK_AT_ONCE = 8;

/**
 * Each Payment an event of the run carried, read with GET after its events arrived (its
 * environment's key) and compared with them as one more view: the fields fixed at creation and the
 * instants equal, the status where the events' statuses can lead (service/harness/worker/payment-views.ts).
 */
interface ReadBack {
  problems: string[];
  payments: number;
  unread: number;
  why: string;
}

/** The Payment a payment.* delivery carries (its id and livemode) into `byId`. */
function notePayment(d: Delivery, byId: Map<string, boolean>): void {
  const object = d.event?.type?.startsWith('payment.') && d.event.paymentId ? bodyOf(d)?.data?.object : undefined;
  if (object && typeof object === 'object' && typeof object.id === 'string') byId.set(object.id, object.livemode === true);
}

/** `byId`: each Payment an event carried (./notePayment), true when Live. */
async function readsAgainstEvents(t: RuleContext, byId: ReadonlyMap<string, boolean>, views: PaymentViews): Promise<ReadBack> {
  const ids = [...byId].filter(([, live]) => !live || t.keys.live !== undefined);
  const chosen = ids.slice(0, MAX_READ_BACK);
  // Each read is alone (one GET per Payment, after all its events), a few at a time; problems in id order.
  const found = await inOrder(chosen, async ([id, live]) => {
    const sentAt = Date.now();
    const res = await t.client.getPayment(live ? t.keys.live! : t.keys.test, id);
    if (res.status !== 200 || !res.json || typeof res.json !== 'object') {
      const key = live ? 'Live' : 'Test';
      return [`Payment ${id}: an event of the run carried it, yet GET /payments/${id} with its ${key} key answered ${res.status}`];
    }
    const view = { payment: res.json, where: `GET /payments/${id} after its events`, sentAt, answeredAt: Date.now(), snapshot: false };
    return (views.observe(view) ?? []).map((x) => x.message);
  }, READ_BACK_AT_ONCE);
  const problems = found.flat();
  const unread = byId.size - chosen.length;
  const why = ids.length < byId.size ? 'Live Payments without keys.live' : `more than ${MAX_READ_BACK}`;
  return { problems, payments: chosen.length, unread, why };
}

/**
 * The events of one Payment show one Payment: each event's livemode is its data.object's, and the
 * fields fixed at creation agree across all its events (service/harness/worker/payment-views.ts, every event a
 * snapshot: statuses are not ordered here).
 */
function eventViewProblems(deliveries: readonly Delivery[], views = new PaymentViews()): string[] {
  const problems: string[] = [];
  for (const d of deliveries) {
    // Only payment.* events carry a Payment (endpoint.test's data.object is synthetic).
    if (!d.event?.paymentId || !d.event.type?.startsWith('payment.')) continue;
    const body = bodyOf(d);
    const object = body?.data?.object;
    if (!object || typeof object !== 'object' || Array.isArray(object)) continue;
    if (body.livemode !== object.livemode) problems.push(`${describe(d)}: the event says livemode ${JSON.stringify(body.livemode)}, its data.object ${JSON.stringify(object.livemode)}`);
    // The event is the Payment as it was when the service sent it: a read asked for after its arrival
    // may show it moved on along the transition table, never back (service/harness/worker/payment-views.ts).
    const diffs = views.observe({ payment: object, where: describe(d), sentAt: 0, answeredAt: d.receivedAt, snapshot: false }) ?? [];
    problems.push(...diffs.map((x) => x.message));
  }
  return problems;
}

ruleTest('HOOK-ONE-EVENT-PER-TRANSITION', async (t) => {
  const h = hooks(t);
  const tr = await traffic(t, h);
  if (tr.expected.length === 0) t.skip('the profile declares no enabled endpoint subscribed to these events');
  const ledger = new IdentityLedger();
  const views = new PaymentViews();
  const payments = new Map<string, boolean>();
  const problems: string[] = [];
  const seen = new Set<number>();
  let retried = 0;
  const take = (d: Delivery) => {
    if (seen.has(d.seq)) return;
    seen.add(d.seq);
    if ((d.attempt ?? 1) > 1) retried++;
    ledger.add(d);
    problems.push(...eventViewProblems([d], views));
    notePayment(d, payments);
  };
  // Every delivery the sink recorded so far in this run (other tests' Payments too), a page at a time
  // (by the quick start's end ~1 400 of them, 3.5 MB: never held at once), then the file's own after its quiet period.
  let more = true;
  for (let since = 0, pages = 0; more && pages < MAX_PAGES; pages++) {
    const page = await h.sink.deliveries({ sinceSeq: since, limit: PAGE });
    page.forEach(take);
    more = page.length === PAGE;
    since = page.at(-1)?.seq ?? since;
  }
  tr.deliveries.forEach(take);
  if (more) t.note(`the sink held more than ${PAGE * MAX_PAGES} deliveries: the first ${PAGE * MAX_PAGES} and the file's own were judged`);
  expectTrue(retried > 0, 'setup: no event was attempted twice (the file\'s failing first attempts were not retried)', '≥ 1 retry', retried);
  problems.unshift(...ledger.problems());
  const read = await readsAgainstEvents(t, payments, views);
  problems.push(...read.problems);
  const wanted = 'one event id and one body per transition and endpoint, each event the Payment GET shows';
  expectTrue(problems.length === 0, `${problems.length} identity problem(s): ${problems.slice(0, 4).join('; ')}`, wanted, problems.slice(0, 10));
  const unread = read.unread ? `, ${read.unread} not read (${read.why})` : '';
  t.note(`${seen.size} deliveries (${retried} of them retries) of ${ledger.transitions} (endpoint, Payment, event type) transitions: ` +
    `each one event id and one body; ${read.payments} Payment(s) read back after their events and compared field by field${unread}`);
});
