/** Creating an event at the moment of its cause and handing it to the dispatcher. */
import type { AppContext } from '../context.ts';
import type { EventType, StoredEvent, WebhookEndpoint } from '../types.ts';
import { createEvent, subscribedEndpoints, type EventSource } from './events.ts';

/** Creates the event (body bytes fixed now) and routes it to every subscribed endpoint. */
export function emitEvent(ctx: AppContext, type: EventType, source: EventSource, object: unknown, at: number): StoredEvent {
  const event = createEvent(type, source, object, at);
  ctx.state.events.push(event);
  ctx.dispatcher.deliver(event, subscribedEndpoints(ctx.state.endpoints, event));
  return event;
}

/** An event for one named endpoint only, whatever its subscription (the dashboard's "Send test event"). */
export function emitEventTo(ctx: AppContext, endpoint: WebhookEndpoint, type: EventType, object: unknown, at: number): StoredEvent {
  const event = createEvent(type, { businessId: endpoint.businessId, env: endpoint.env, paymentId: null }, object, at);
  ctx.state.events.push(event);
  ctx.dispatcher.deliver(event, [endpoint]);
  return event;
}
