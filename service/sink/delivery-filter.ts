/**
 * Selecting deliveries, the same way in process (RunningSink.deliveries) and over HTTP
 * (`GET /_sink/deliveries?payment_id=&event_id=&type=&path=&since_seq=&no_object_id=1&type_not_prefix=&limit=`).
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
  /** Only events whose `data.object` names no id (a delivery without a readable event never matches). */
  noObjectId?: true;
  /** Only events whose type does not start with this, e.g. `payment.` (a delivery without a readable event never matches). */
  typeNotPrefix?: string;
  /** At most this many, the lowest seq first (a reader pages on with sinceSeq); 1 to 100 000. */
  limit?: number;
}

/** Query parameter name of each filter field. */
const PARAMS = {
  paymentId: 'payment_id',
  eventId: 'event_id',
  eventType: 'type',
  path: 'path',
  sinceSeq: 'since_seq',
  noObjectId: 'no_object_id',
  typeNotPrefix: 'type_not_prefix',
  limit: 'limit',
} as const satisfies Record<keyof DeliveryFilter, string>;

export function matchesFilter(delivery: Delivery, filter: DeliveryFilter): boolean {
  if (filter.paymentId !== undefined && delivery.event?.paymentId !== filter.paymentId) return false;
  if (filter.eventId !== undefined && delivery.event?.id !== filter.eventId) return false;
  if (filter.eventType !== undefined && delivery.event?.type !== filter.eventType) return false;
  if (filter.path !== undefined && delivery.path !== filter.path) return false;
  if (filter.sinceSeq !== undefined && delivery.seq <= filter.sinceSeq) return false;
  if (filter.noObjectId && (delivery.event === null || delivery.event.paymentId !== null)) return false;
  const prefix = filter.typeNotPrefix;
  if (prefix !== undefined && (delivery.event === null || (delivery.event.type ?? '').startsWith(prefix))) return false;
  return true;
}

export function filterToSearchParams(filter: DeliveryFilter): URLSearchParams {
  const params = new URLSearchParams();
  for (const [field, name] of Object.entries(PARAMS) as [keyof DeliveryFilter, string][]) {
    const value = filter[field];
    if (value !== undefined) params.set(name, value === true ? '1' : String(value));
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
  const noObjectId = text(PARAMS.noObjectId);
  const typeNotPrefix = text(PARAMS.typeNotPrefix);
  const limit = text(PARAMS.limit);
  if (paymentId !== undefined) filter.paymentId = paymentId;
  if (eventId !== undefined) filter.eventId = eventId;
  if (eventType !== undefined) filter.eventType = eventType;
  if (path !== undefined) filter.path = path;
  if (sinceSeq !== undefined) {
    if (!/^[0-9]{1,15}$/.test(sinceSeq)) return { ok: false, problem: 'since_seq must be a non-negative integer' };
    filter.sinceSeq = Number(sinceSeq);
  }
  if (noObjectId !== undefined) {
    if (noObjectId !== '1') return { ok: false, problem: 'no_object_id takes 1' };
    filter.noObjectId = true;
  }
  if (typeNotPrefix !== undefined) filter.typeNotPrefix = typeNotPrefix;
  if (limit !== undefined) {
    const problem = 'limit must be an integer from 1 to 100000';
    if (!/^[1-9][0-9]{0,5}$/.test(limit) || Number(limit) > 100_000) return { ok: false, problem };
    filter.limit = Number(limit);
  }
  return { ok: true, filter };
}
