/**
 * Where the events of a story must go and the bounded wait until they arrived, for the webhooks
 * suites and VERS-EVENT-API-VERSION: each event to every enabled, same-environment, subscribed
 * endpoint (Events › Endpoints and routing).
 */
import type { Delivery } from '../../service/sink/index.ts';
import { Mismatch } from '../../service/harness/worker/expect.ts';
import { FIRST_DELIVERY_MS, collect, describe } from './deliveries.ts';
import type { Emitted, Story } from './stories.ts';
import { subscribers, type Endpoint, type Hooks } from './webhook-hooks.ts';

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
