/**
 * Reads the fields the sink needs from a delivery body, defensively: the body is whatever bytes the
 * target sent. An Event (spec "Event (webhook envelope)") is a JSON object with a string `id`; for
 * payment events `data.object` is the Payment, whose `metadata.sink` carries the answer plan.
 */
import type { DeliveryEvent } from './types.ts';

export type EventFieldsResult =
  | { ok: true; event: DeliveryEvent; /** `data.object.metadata.sink` as found, any type */ marker: unknown }
  | { ok: false; problem: 'body_not_json' | 'body_not_event' };

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function readEventFields(rawBody: Buffer): EventFieldsResult {
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(rawBody));
  } catch {
    return { ok: false, problem: 'body_not_json' };
  }
  if (!isObject(value) || typeof value.id !== 'string') return { ok: false, problem: 'body_not_event' };
  const object = isObject(value.data) && isObject(value.data.object) ? value.data.object : undefined;
  const metadata = object && isObject(object.metadata) ? object.metadata : undefined;
  const marker = metadata?.sink;
  return {
    ok: true,
    event: {
      id: value.id,
      type: typeof value.type === 'string' ? value.type : null,
      livemode: typeof value.livemode === 'boolean' ? value.livemode : null,
      paymentId: typeof object?.id === 'string' ? object.id : null,
      sinkMarker: typeof marker === 'string' ? marker : null,
    },
    marker,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
