/**
 * Reads the fields the sink needs from a delivery body, defensively: the body is whatever bytes the
 * target sent. An Event (spec "Event (webhook envelope)") is a JSON object with a string `id`; for
 * payment events `data.object` is the Payment, whose `metadata.sink` carries the answer plan.
 */
import type { DeliveryEvent } from './types.ts';

export type EventFieldsResult =
  | {
    ok: true;
    event: DeliveryEvent;
    /** `data.object.metadata.sink` as found, any type: the plan of every endpoint without one of its own */
    marker: unknown;
    /** `data.object.metadata["sink@<path>"]` as found, any type: the plan of the endpoint at <path> */
    markerAt: (path: string) => unknown;
  }
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
    markerAt: (path) => {
      const own = `${ENDPOINT_MARKER_PREFIX}${path}`;
      return metadata && Object.hasOwn(metadata, own) ? metadata[own] : marker;
    },
  };
}

/**
 * A metadata key `sink@<path>` plans the answers of the endpoint at <path> alone (answer-plan.ts):
 * endpoints with different behaviours in one story (one acknowledges, one fails, one times out).
 */
export const ENDPOINT_MARKER_PREFIX = 'sink@';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
