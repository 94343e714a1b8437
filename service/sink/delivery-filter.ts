/**
 * Selecting deliveries, the same way in process (RunningSink.deliveries) and over HTTP
 * (`GET /_sink/deliveries?payment_id=&event_id=&type=&path=&since_seq=`).
 */
import type { Delivery } from './types.ts';

export interface DeliveryFilter {
  /** `data.object.id` of the event. */
  paymentId?: string;
  eventId?: string;
  /** Event type, e.g. `payment.paid`. */
  eventType?: string;
  /** Request path, e.g. `/hooks/test-all`. */
  path?: string;
  /** Only deliveries with `seq` greater than this. */
  sinceSeq?: number;
}

/** Query parameter name of each filter field. */
const PARAMS = {
  paymentId: 'payment_id',
  eventId: 'event_id',
  eventType: 'type',
  path: 'path',
  sinceSeq: 'since_seq',
} as const satisfies Record<keyof DeliveryFilter, string>;

export function matchesFilter(delivery: Delivery, filter: DeliveryFilter): boolean {
  if (filter.paymentId !== undefined && delivery.event?.paymentId !== filter.paymentId) return false;
  if (filter.eventId !== undefined && delivery.event?.id !== filter.eventId) return false;
  if (filter.eventType !== undefined && delivery.event?.type !== filter.eventType) return false;
  if (filter.path !== undefined && delivery.path !== filter.path) return false;
  if (filter.sinceSeq !== undefined && delivery.seq <= filter.sinceSeq) return false;
  return true;
}

export function filterToSearchParams(filter: DeliveryFilter): URLSearchParams {
  const params = new URLSearchParams();
  for (const [field, name] of Object.entries(PARAMS) as [keyof DeliveryFilter, string][]) {
    const value = filter[field];
    if (value !== undefined) params.set(name, String(value));
  }
  return params;
}

export function filterFromSearchParams(
  params: URLSearchParams,
): { ok: true; filter: DeliveryFilter } | { ok: false; problem: string } {
  const filter: DeliveryFilter = {};
  const known = new Set<string>(Object.values(PARAMS));
  for (const name of params.keys()) {
    if (!known.has(name)) return { ok: false, problem: `unknown query parameter ${JSON.stringify(name)}` };
    if (params.getAll(name).length > 1) return { ok: false, problem: `query parameter ${name} repeated` };
  }
  const text = (name: string) => params.get(name) ?? undefined;
  const paymentId = text(PARAMS.paymentId);
  const eventId = text(PARAMS.eventId);
  const eventType = text(PARAMS.eventType);
  const path = text(PARAMS.path);
  const sinceSeq = text(PARAMS.sinceSeq);
  if (paymentId !== undefined) filter.paymentId = paymentId;
  if (eventId !== undefined) filter.eventId = eventId;
  if (eventType !== undefined) filter.eventType = eventType;
  if (path !== undefined) filter.path = path;
  if (sinceSeq !== undefined) {
    if (!/^[0-9]{1,15}$/.test(sinceSeq)) return { ok: false, problem: 'since_seq must be a non-negative integer' };
    filter.sinceSeq = Number(sinceSeq);
  }
  return { ok: true, filter };
}
