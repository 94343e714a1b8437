/**
 * The deliveries the sink recorded, for the webhooks suites and VERS-EVENT-API-VERSION: read by
 * this run's Payment ids (never assumed to be the only ones the sink holds), named in evidence,
 * and polled within a bound.
 *
 * Spec: Events › Delivery request; Limits.
 */
import { deliveryBody, type Delivery } from '../../service/sink/index.ts';
import { sleep } from '../../service/harness/worker/wait-clock.ts';
import { parseBoundedJson } from '../../core/bounded-json.ts';
import type { Hooks } from './webhook-hooks.ts';

/** Bound for the first attempt of an event to reach the sink. */
export const FIRST_DELIVERY_MS = 10_000;
/** Poll period of the sink's query API. */
export const POLL_MS = 50;

/** A sleep counted as the running test's waiting (service/harness/worker/wait-clock.ts). */
export { sleep } from '../../service/harness/worker/wait-clock.ts';

/** The delivery's body as JSON, or undefined when it is not JSON or nested past the bound (core/bounded-json.ts). */
export function bodyOf(d: Delivery): any {
  return parseBoundedJson(deliveryBody(d).toString('utf8')).json;
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
