/**
 * Shared by the webhooks suites (and VERS-EVENT-API-VERSION): the sink the runner started, the
 * profile's endpoints, the retry schedule divided by `webhooks.time_scale`, the operations that emit
 * events, and bounded waits for what should (or should not) arrive.
 *
 * Spec: Events › Endpoints and routing, Delivery request, Signature, Delivery rules; Limits.
 *
 * Every wait here is bounded in time and polls the sink's query API (`sinkClient`). Deliveries are
 * always selected by this run's Payment ids (or, for `endpoint.test`, by the event id / type and a
 * seq mark), never assumed to be the only ones the sink holds.
 */
import type { ApiResponse } from '../../core/client.ts';
import { clientForProfile } from '../../core/client-for-profile.ts';
import type { WebhookEndpoint } from '../../core/profile.ts';
import { suiteContext, type RuleContext } from '../../runner/rule-test.ts';
import { Mismatch, deepEqual, short } from '../../runner/expect.ts';
import { deliveryBody, sinkClient, type Delivery, type SinkClient } from '../../sink/index.ts';

// ───────────────────────────── the spec's numbers ─────────────────────────────

/** Gap before attempt n+2 after attempt n+1 failed: immediately, 30 s, 2 min, 10 min, 30 min, 2 h, 6 h (Limits). */
export const RETRY_GAPS_MS: readonly number[] = [0, 30_000, 120_000, 600_000, 1_800_000, 7_200_000, 21_600_000];
/** 1 + 7 retries (DESIGN: spec gaps). */
export const MAX_ATTEMPTS = RETRY_GAPS_MS.length + 1;
/** Webhook response time-out (Limits); never scaled. */
export const RESPONSE_TIMEOUT_MS = 10_000;
/** How long the sink holds a `timeout:<N>` answer before answering 200 (sink/README.md). */
export const SINK_HOLD_MS = 12_000;
export const USER_AGENT = 'Service-Webhooks/1.0';
/** Signature timestamp tolerance (Signature 2, Limits). */
export const TIMESTAMP_TOLERANCE_S = 300;

/**
 * Slack for "no retry earlier than its gap", in real (unscaled) ms. The suite sees arrivals only; the
 * spec does not say from which instant a gap counts (end or start of the failed attempt). A sender that
 * counts from the start of its attempt puts gap + (latency of attempt n+1 − latency of attempt n)
 * between arrivals, and that latency varies (a busy sender's event loop, the network): up to ~100 ms
 * was seen on loopback under load. 250 ms covers that jitter and timer granularity; at time_scale 1
 * it is under 1 % of the shortest timed gap, and at 2000 a retry that skipped a step of the schedule
 * still falls short by 600 ms or more from the 30 min gap on.
 */
export const CLOCK_SLACK_MS = 250;
/** Bound for the first attempt of an event to reach the sink. */
export const FIRST_DELIVERY_MS = 10_000;
/** Extra bound, on top of the scheduled gaps, for a retry to arrive before it counts as missing. */
export const RETRY_MARGIN_MS = 5_000;
/** Poll period of the sink's query API. */
export const POLL_MS = 50;
/**
 * Budget of real time the retry ladder may take. Gaps whose scaled sum fits are checked; the
 * first two gaps (immediately, 30 s) are always checked, whatever the scale.
 */
export const LADDER_BUDGET_MS = 60_000;

// ───────────────────────────── endpoints and the sink ─────────────────────────────

export interface Endpoint extends WebhookEndpoint {
  enabled: boolean;
}

export interface Hooks {
  sink: SinkClient;
  endpoints: Endpoint[];
  /** `webhooks.time_scale` (default 1): the target's retry clock runs this much faster. */
  scale: number;
}

/** The run's sink and the profile's endpoints; SKIP when the run has no sink. */
export function hooks(t: RuleContext): Hooks {
  const w = t.profile.webhooks;
  if (!w) t.skip('profile lacks webhooks');
  if (!t.sinkUrl) t.skip('this run has no webhook sink (the runner starts one when the selection has webhook rules)');
  return {
    sink: sinkClient(t.sinkUrl, { requestTimeoutMs: 10_000, token: suiteContext().sinkToken ?? undefined }),
    endpoints: w.endpoints.map((e) => ({ ...e, enabled: e.enabled !== false })),
    scale: w.time_scale ?? 1,
  };
}

/** Enabled endpoints of that environment subscribed to that type: where an event must go. */
export function subscribers(h: Hooks, livemode: boolean, type: string): Endpoint[] {
  return h.endpoints.filter((e) => e.enabled && e.livemode === livemode && (e.events === '*' || e.events.includes(type)));
}

/** An enabled endpoint of the environment subscribed to every type (the reference point of quiet periods). */
export function allTypesEndpoint(h: Hooks, livemode: boolean): Endpoint | undefined {
  return h.endpoints.find((e) => e.enabled && e.livemode === livemode && e.events === '*');
}

export function endpointAt(h: Hooks, path: string): Endpoint | undefined {
  return h.endpoints.find((e) => e.path === path);
}

/** Whether Live Payments may be created (PROFILE: never unless probes.live_writes). */
export function liveWrites(t: RuleContext): boolean {
  return Boolean(t.keys.live && t.profile.probes?.live_writes === true);
}

/** The scaled gap before attempt `n + 1` (n ≥ 1), in real ms. */
export function scaledGapMs(h: Hooks, n: number): number {
  return (RETRY_GAPS_MS[n - 1] ?? 0) / h.scale;
}

/**
 * Lateness allowed after a gap before HOOK-RETRY-PUNCTUAL warns: `webhooks.late_tolerance_ms`, or
 * max(3000 ms, 50 % of the scaled gap). A queue-based sender is never exact; and the embedded
 * reference shares its process (one event loop) with the runner and the sink, where pauses of over
 * a second were seen on a loaded 2-CPU host — every pending retry then arrives that much late. A
 * sender whose gaps are wrong by a step (2 h instead of 1 h …) is late by far more.
 */
export function lateToleranceMs(t: RuleContext, scaledGap: number): number {
  return t.profile.webhooks?.late_tolerance_ms ?? Math.max(3000, scaledGap * 0.5);
}

/**
 * A quiet period after the positive deliveries arrived: what should not come would have come
 * about as fast as what did. Three times the slowest delivery latency seen, between 1 s and 3 s.
 */
export function quietMs(latencyMs: number): number {
  return Math.min(3000, Math.max(1000, Math.ceil(3 * latencyMs)));
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

// ───────────────────────────── deliveries ─────────────────────────────

/** The delivery's body as JSON, or undefined when it is not JSON. */
export function bodyOf(d: Delivery): any {
  try {
    return JSON.parse(deliveryBody(d).toString('utf8'));
  } catch {
    return undefined;
  }
}

/** One line naming a delivery in evidence. */
export function describe(d: Delivery): string {
  const e = d.event;
  return `delivery #${d.seq} to ${d.path}${e ? ` of ${e.type} ${e.id}${e.paymentId ? ` (${e.paymentId})` : ''}` : ''}${d.attempt ? `, attempt ${d.attempt}` : ''}`;
}

/** A compact, secret-free view of a delivery for expected/actual evidence. */
export function evidenceOf(d: Delivery): Record<string, unknown> {
  return {
    seq: d.seq,
    path: d.path,
    receivedAt: new Date(d.receivedAt).toISOString(),
    headers: d.headers,
    event: d.event,
    bodySha256: d.bodySha256,
    body: deliveryBody(d).toString('utf8').slice(0, 600),
    signature: d.signature,
    attempt: d.attempt,
    answer: d.answer,
  };
}

/** Every delivery of these Payments' events (any endpoint), in arrival order. */
export async function deliveriesOf(h: Hooks, paymentIds: readonly string[]): Promise<Delivery[]> {
  const lists = await Promise.all([...new Set(paymentIds)].map((id) => h.sink.deliveries({ paymentId: id })));
  return lists.flat().sort((a, b) => a.seq - b.seq);
}

/**
 * Polls the deliveries of `paymentIds` until `done` says so or `boundMs` passed. Returns what was
 * there at the end and whether `done` was reached.
 */
export async function collect(
  h: Hooks,
  paymentIds: readonly string[],
  done: (ds: Delivery[]) => boolean,
  boundMs: number,
): Promise<{ deliveries: Delivery[]; done: boolean }> {
  const deadline = Date.now() + boundMs;
  const maxPolls = Math.ceil(boundMs / POLL_MS) + 2;
  let ds: Delivery[] = [];
  for (let poll = 0; poll < maxPolls; poll++) {
    ds = await deliveriesOf(h, paymentIds);
    if (done(ds)) return { deliveries: ds, done: true };
    const left = deadline - Date.now();
    if (left <= 0) break;
    await sleep(Math.min(POLL_MS, left));
  }
  return { deliveries: ds, done: false };
}

// ───────────────────────────── operations that emit events ─────────────────────────────

export type Op = 'create' | 'cancel' | 'succeed' | 'helper-cancel' | 'reverse';

/** Operations that emit events (spec table) and the control reversal. */
export const EVENT_OF: Readonly<Record<Op, string>> = {
  create: 'payment.created',
  cancel: 'payment.cancelled',
  succeed: 'payment.paid',
  'helper-cancel': 'payment.cancelled',
  reverse: 'payment.reversed',
};

/** One event the suite caused: which operation, on which Payment, and what the operation answered. */
export interface Emitted {
  op: Op;
  paymentId: string;
  livemode: boolean;
  type: string;
  /** The 201 of create / 200 of the others: what data.object must equal. */
  object: any;
  /** Epoch ms just before the request was sent. */
  sentAt: number;
}

/** A Payment and the events the suite caused on it, in order. */
export interface Story {
  paymentId: string;
  livemode: boolean;
  key: string;
  emitted: Emitted[];
}

/** A control-API client (PROFILE: optional capability, bearer control.token). */
export async function controlRequest(t: RuleContext, method: string, path: string, json?: unknown): Promise<ApiResponse> {
  const control = t.profile.control;
  if (!control) t.skip('profile lacks control');
  const client = clientForProfile(t.profile, { baseUrl: control.url });
  return client.request({ method, path, authorization: `Bearer ${control.token}`, ...(json === undefined ? {} : { json }) });
}

async function send(t: RuleContext, op: Exclude<Op, 'create'>, key: string, id: string): Promise<ApiResponse> {
  switch (op) {
    case 'cancel':
      return t.client.cancelPayment(key, id);
    case 'succeed':
      return t.client.simulateSucceeded(key, id);
    case 'helper-cancel':
      return t.client.simulateCancelled(key, id);
    case 'reverse':
      return controlRequest(t, 'POST', `/payments/${encodeURIComponent(id)}/reverse`);
  }
}

/**
 * Creates a marked Payment (with `sink` in its metadata when given) and applies `ops` in order,
 * each asserted to answer 200 (a setup failure, not this rule's). `body` adds create fields.
 */
export async function tell(
  t: RuleContext,
  o: { ops?: readonly Exclude<Op, 'create'>[]; sink?: string; live?: boolean; body?: Record<string, unknown> } = {},
): Promise<Story> {
  const live = o.live === true;
  const key = live ? t.keys.live! : t.keys.test;
  const extra = (o.body?.metadata ?? {}) as Record<string, string>;
  const metadata = t.metadata({ ...extra, ...(o.sink ? { sink: o.sink } : {}) });
  const sentAt = Date.now();
  const created = await t.createPayment({ amount: live ? '10.00' : '100.00', external_id: t.externalId('hook'), ...o.body, metadata }, key);
  // livemode is the key's environment (what the events must carry), not what the target answered.
  const story: Story = {
    paymentId: created.id,
    livemode: live,
    key,
    emitted: [{ op: 'create', paymentId: created.id, livemode: live, type: EVENT_OF.create, object: created, sentAt }],
  };
  for (const op of o.ops ?? []) {
    const at = Date.now();
    const res = await send(t, op, key, created.id);
    if (res.status !== 200) {
      throw new Mismatch(`setup: ${op} on ${created.id} answered ${res.status} ${res.json?.error?.code ?? ''}, expected 200`, { status: 200 }, { status: res.status, body: res.json ?? res.text.slice(0, 200) });
    }
    story.emitted.push({ op, paymentId: created.id, livemode: live, type: EVENT_OF[op], object: res.json, sentAt: at });
  }
  return story;
}

/** One (event, endpoint) pair that must see at least one delivery. */
export interface Expected {
  emitted: Emitted;
  endpoint: Endpoint;
}

/** Where the stories' events must go: each event to every enabled, same-environment, subscribed endpoint. */
export function expectedDeliveries(h: Hooks, stories: readonly Story[]): Expected[] {
  return stories.flatMap((s) => s.emitted.flatMap((emitted) => subscribers(h, emitted.livemode, emitted.type).map((endpoint) => ({ emitted, endpoint }))));
}

/** The deliveries of one expected (event, endpoint): same Payment, type and path. */
export function deliveriesFor(ds: readonly Delivery[], x: Expected): Delivery[] {
  return ds.filter((d) => d.path === x.endpoint.path && d.event?.paymentId === x.emitted.paymentId && d.event?.type === x.emitted.type);
}

export interface Arrivals {
  deliveries: Delivery[];
  missing: Expected[];
  /** Slowest first arrival after its operation was sent (ms). */
  latencyMs: number;
}

/**
 * Waits (bounded) until every expected (event, endpoint) has at least `attempts` deliveries. With
 * `settleMs`, it also stops once every Payment has some delivery and nothing new came for that long
 * (for rules that judge what arrived, not whether everything did).
 */
export async function awaitDeliveries(h: Hooks, stories: readonly Story[], o: { attempts?: number; boundMs?: number; settleMs?: number } = {}): Promise<Arrivals> {
  const expected = expectedDeliveries(h, stories);
  const attempts = o.attempts ?? 1;
  const missingIn = (ds: Delivery[]) => expected.filter((x) => deliveriesFor(ds, x).length < attempts);
  let count = -1;
  let changedAt = Date.now();
  const settled = (ds: Delivery[]) => {
    if (o.settleMs === undefined) return false;
    if (ds.length !== count) {
      count = ds.length;
      changedAt = Date.now();
    }
    return stories.every((s) => ds.some((d) => d.event?.paymentId === s.paymentId)) && Date.now() - changedAt >= o.settleMs;
  };
  const { deliveries } = await collect(h, stories.map((s) => s.paymentId), (ds) => missingIn(ds).length === 0 || settled(ds), o.boundMs ?? FIRST_DELIVERY_MS);
  let latencyMs = 0;
  for (const x of expected) {
    const first = deliveriesFor(deliveries, x)[0];
    if (first) latencyMs = Math.max(latencyMs, first.receivedAt - x.emitted.sentAt);
  }
  return { deliveries, missing: missingIn(deliveries), latencyMs };
}

/** Fails (setup-style) when an expected delivery never came: the rule under test needs it. */
export function requireArrived(a: Arrivals, what: string): void {
  if (a.missing.length === 0) return;
  const m = a.missing.slice(0, 5).map((x) => `${x.emitted.type} of ${x.emitted.paymentId} at ${x.endpoint.path}`);
  throw new Mismatch(
    `${what}: ${a.missing.length} expected deliver${a.missing.length === 1 ? 'y' : 'ies'} never reached the sink within the bound: ${m.join('; ')}`,
    m,
    a.deliveries.map((d) => describe(d)).slice(0, 20),
  );
}

/** The top-level fields where two objects differ (missing, extra or unequal). */
export function fieldDiff(actual: any, expected: any): string[] {
  if (actual === null || typeof actual !== 'object' || expected === null || typeof expected !== 'object') {
    return deepEqual(actual, expected) ? [] : ['(whole value)'];
  }
  const keys = new Set([...Object.keys(actual), ...Object.keys(expected)]);
  return [...keys].filter((k) => !deepEqual(actual[k], expected[k])).sort();
}

/** Throws when data.object differs from what the operation answered, naming the fields. */
export function expectSameObject(actual: any, expected: any, what: string): void {
  const diff = fieldDiff(actual, expected);
  if (diff.length === 0) return;
  const detail = diff.slice(0, 6).map((k) => `${k}: ${short(actual?.[k])} vs ${short(expected?.[k])}`).join('; ');
  throw new Mismatch(`${what}: data.object differs from the operation's answer in ${diff.join(', ')} (event vs answer: ${detail})`, expected, actual);
}
