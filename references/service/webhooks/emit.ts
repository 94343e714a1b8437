/**
 * Creating an event at the moment of its cause and handing it to the dispatcher. The planted
 * faults of this file are overrides in the `faulty` table of the step they break (references/service/steps.ts).
 */
import type { AppContext } from '../context.ts';
import { toPaymentResource } from '../payments.ts';
import { checkOf, type PlantingStep, type Step } from '../steps.ts';
import type { EventType, StoredEvent, WebhookEndpoint } from '../types.ts';
import { EVENT_MADE, EVENT_ROUTED } from './event-contract.ts';
import { createEvent, subscribedEndpoints, type EventSource } from './events.ts';

interface Emitted {
  readonly ctx: AppContext;
  readonly event: StoredEvent;
}

/** The endpoints the event goes to, each with its own secret. */
const RECIPIENTS: Step<Emitted, WebhookEndpoint[]> = {
  name: 'every subscribed endpoint, each signing with its own secret',
  check: ({ ctx, event }) => subscribedEndpoints(ctx.state.endpoints, event, ctx.faults),
  faulty: {
    'signed-with-first-endpoint-secret': {
      does: 'The signing secret is looked up per business, not per endpoint: every endpoint\'s deliveries are signed with the business\'s first endpoint\'s secret.',
      breaks: ['HOOK-SIGNATURE-OWN-SECRET', 'HOOK-SIGNATURE-VALID'],
      violates: ['auth.webhook-signing-secret#own-secret'],
      plant: (input, next) => {
        const endpoints = next(input);
        const first = input.ctx.state.endpoints.find((e) => e.businessId === input.event.businessId);
        return first ? endpoints.map((e) => ({ ...e, secret: first.secret })) : endpoints;
      },
    },
  },
};

/** What the dispatcher sends: the event, whose body bytes were fixed at its creation. */
const DISPATCHED: Step<Emitted, StoredEvent> = {
  name: 'every attempt sends the bytes fixed when the event was created',
  check: ({ event }) => event,
  faulty: {
    'retry-body-regenerated': {
      does: 'Each attempt re-renders data.object from the Payment\'s current state instead of the snapshot taken at the event.',
      breaks: ['HOOK-RETRY-SAME-BODY'],
      violates: ['event.snapshot-never-regenerated', 'delivery-rules.retry-same-id-body#same-body'],
      plant: ({ ctx, event }, next) => {
        const paymentId = event.paymentId;
        if (paymentId === null) return next({ ctx, event });
        return Object.defineProperty({ ...event }, 'body', {
          get: () => {
            const payment = ctx.state.payments.getAny(paymentId);
            if (payment === undefined) return event.body;
            const envelope = JSON.parse(event.body.toString('utf8'));
            envelope.data.object = toPaymentResource(payment, ctx.decisions);
            return Buffer.from(JSON.stringify(envelope), 'utf8');
          },
        });
      },
    },
  },
};

/** Creates the event (body bytes fixed now) and routes it to every subscribed endpoint. */
export function emitEvent(ctx: AppContext, type: EventType, source: EventSource, object: unknown, at: number): StoredEvent {
  const created = createEvent(type, source, object, at, ctx.faults, ctx.decisions.timestampOffset);
  const event = checkOf(EVENT_MADE, ctx.faults)({ ctx, event: created });
  ctx.state.events.push(event ?? created);
  if (event === null) return created;
  const endpoints = checkOf(EVENT_ROUTED, ctx.faults)({ ctx, event, endpoints: checkOf(RECIPIENTS, ctx.faults)({ ctx, event }) });
  ctx.dispatcher.deliver(checkOf(DISPATCHED, ctx.faults)({ ctx, event }), [...endpoints]);
  return event;
}

/** An event for one named endpoint only, whatever its subscription (the dashboard's "Send test event"). */
export function emitEventTo(ctx: AppContext, endpoint: WebhookEndpoint, type: EventType, object: unknown, at: number): StoredEvent {
  const event = createEvent(type, { businessId: endpoint.businessId, env: endpoint.env, paymentId: null }, object, at, ctx.faults, ctx.decisions.timestampOffset);
  ctx.state.events.push(event);
  ctx.dispatcher.deliver(event, [endpoint]);
  return event;
}

/** The steps of this file that plant faults (references/service/fault-registry.ts reads their declarations). */
export const FAULTY_STEPS: readonly PlantingStep[] = [RECIPIENTS, DISPATCHED];
