/**
 * Events (spec, "Event (webhook envelope)", "Event types", "Endpoints and routing").
 * An event is created at the moment of its cause; its body bytes are serialised once,
 * here, and every delivery attempt sends exactly those bytes.
 */
import { newEventId } from '../ids.ts';
import { formatTimestamp } from '../time.ts';
import type { Environment, EventType, StoredEvent, WebhookEndpoint } from '../types.ts';

export interface EventSource {
  businessId: string;
  env: Environment;
  paymentId: string | null;
}

export function createEvent(type: EventType, source: EventSource, object: unknown, at: number): StoredEvent {
  const id = newEventId();
  const livemode = source.env === 'live';
  const envelope = {
    id,
    object: 'event',
    api_version: 'v1',
    type,
    livemode,
    created_at: formatTimestamp(at),
    data: { object },
  };
  return {
    id,
    type,
    livemode,
    createdAt: at,
    businessId: source.businessId,
    env: source.env,
    paymentId: source.paymentId,
    body: Buffer.from(JSON.stringify(envelope), 'utf8'),
  };
}

/** Enabled endpoints of the event's business, in the same environment, subscribed to its type (or "*"). */
export function subscribedEndpoints(endpoints: readonly WebhookEndpoint[], event: StoredEvent): WebhookEndpoint[] {
  return endpoints.filter(
    (e) =>
      e.enabled &&
      e.businessId === event.businessId &&
      e.env === event.env &&
      (e.events === '*' || e.events.includes(event.type)),
  );
}
