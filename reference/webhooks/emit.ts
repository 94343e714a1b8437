/** Creating an event at the moment of its cause and handing it to the dispatcher. */
import type { AppContext } from '../context.ts';
import { toPaymentResource } from '../payments.ts';
import type { EventType, StoredEvent, WebhookEndpoint } from '../types.ts';
import { createEvent, subscribedEndpoints, type EventSource } from './events.ts';

/** Creates the event (body bytes fixed now) and routes it to every subscribed endpoint. */
export function emitEvent(ctx: AppContext, type: EventType, source: EventSource, object: unknown, at: number): StoredEvent {
  const event = createEvent(type, source, object, at, ctx.faults, ctx.decisions.timestampOffset);
  ctx.state.events.push(event);
  let endpoints = subscribedEndpoints(ctx.state.endpoints, event, ctx.faults);
  if (ctx.faults.has('signed-with-first-endpoint-secret')) {
    /* FAULT signed-with-first-endpoint-secret: the secret is looked up per business: its first endpoint's secret signs every delivery */
    const first = ctx.state.endpoints.find((e) => e.businessId === event.businessId);
    if (first) endpoints = endpoints.map((e) => ({ ...e, secret: first.secret }));
  }
  let dispatched = event;
  if (ctx.faults.has('retry-body-regenerated') && event.paymentId !== null) {
    /* FAULT retry-body-regenerated: each attempt re-renders data.object from the Payment's current state, not the snapshot */
    const paymentId = event.paymentId;
    dispatched = Object.defineProperty({ ...event }, 'body', {
      get: () => {
        const payment = ctx.state.payments.getAny(paymentId);
        if (payment === undefined) return event.body;
        const envelope = JSON.parse(event.body.toString('utf8'));
        envelope.data.object = toPaymentResource(payment, ctx.decisions);
        return Buffer.from(JSON.stringify(envelope), 'utf8');
      },
    });
  }
  ctx.dispatcher.deliver(dispatched, endpoints);
  return event;
}

/** An event for one named endpoint only, whatever its subscription (the dashboard's "Send test event"). */
export function emitEventTo(ctx: AppContext, endpoint: WebhookEndpoint, type: EventType, object: unknown, at: number): StoredEvent {
  const event = createEvent(type, { businessId: endpoint.businessId, env: endpoint.env, paymentId: null }, object, at, ctx.faults, ctx.decisions.timestampOffset);
  ctx.state.events.push(event);
  ctx.dispatcher.deliver(event, [endpoint]);
  return event;
}
