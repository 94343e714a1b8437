/**
 * The Event table and the event routing of the spec, row by row: each planted fault here breaks
 * one field of the envelope (its prefix, its type, its presence), one event type's emission, or
 * the environment routing in one direction, while the rest of every delivery stays as it is. The
 * checks pass the event (and its recipients) on; emit.ts applies them to every event it creates.
 */
import type { Override } from '../../seams/steps.ts';
import type { AppContext } from '../context.ts';
import type { PlantingStep, Step } from '../steps.ts';
import type { EventType, StoredEvent, WebhookEndpoint } from '../types.ts';

/** An event as created, before it is routed; null from the step: it is never dispatched. */
export interface Made {
  readonly ctx: AppContext;
  readonly event: StoredEvent;
}

type Envelope = Record<string, unknown> & { data: Record<string, unknown> };

/** The event with its envelope altered (and its id, where the envelope's id changed): body bytes made again. */
function rewritten(alter: (envelope: Envelope, event: StoredEvent) => Envelope): Override<Made, StoredEvent | null> {
  return (input, next) => {
    const event = next(input);
    if (event === null) return null;
    const envelope = alter(JSON.parse(event.body.toString('utf8')) as Envelope, event);
    const id = typeof envelope.id === 'string' ? envelope.id : event.id;
    return { ...event, id, body: Buffer.from(JSON.stringify(envelope), 'utf8') };
  };
}

/** Events of `type` are written but never dispatched. */
function notSent(type: EventType): Override<Made, StoredEvent | null> {
  return (input, next) => (input.event.type === type ? null : next(input));
}

/** The first event id of each Payment, reused for its later events. */
const firstIds = new WeakMap<AppContext, Map<string, string>>();

function paymentScopedId(ctx: AppContext, event: StoredEvent): string {
  if (event.paymentId === null) return event.id;
  const ids = firstIds.get(ctx) ?? new Map<string, string>();
  firstIds.set(ctx, ids);
  if (!ids.has(event.paymentId)) ids.set(event.paymentId, event.id);
  return ids.get(event.paymentId)!;
}

export const EVENT_MADE: Step<Made, StoredEvent | null> = {
  name: 'each event as the Event table and the event types table say',
  check: ({ event }) => event,
  faulty: {
    'event-id-without-prefix': {
      does: 'Event ids are minted without the evt_ prefix (the outbox row id), in the body and in Service-Event-ID alike.',
      breaks: ['HOOK-ENVELOPE'],
      violates: ['event.field.id#prefix'],
      plant: rewritten((e) => ({ ...e, id: String(e.id).replace(/^evt_/, '') })),
    },
    'event-id-per-payment': {
      does: 'An event\'s id is derived from its Payment (one id per Payment, the outbox key), so every event of a Payment carries the ' +
        'id of its first.',
      breaks: ['HOOK-ONE-EVENT-PER-TRANSITION'],
      violates: ['event.field.id#once-per-event'],
      plant: (input, next) => rewritten((e, event) => ({ ...e, id: paymentScopedId(input.ctx, event) }))(input, next),
    },
    'event-object-capitalised': {
      does: 'Events carry object "Event" (the class name), not "event".',
      breaks: ['HOOK-ENVELOPE'],
      violates: ['event.field.object'],
      plant: rewritten((e) => ({ ...e, object: 'Event' })),
    },
    'event-type-as-object': {
      does: 'Events carry type as an object ({ "name": "payment.created" }), not the WebhookEventType string.',
      breaks: ['HOOK-ENVELOPE'],
      violates: ['event.field.type'],
      plant: rewritten((e) => ({ ...e, type: { name: e.type } })),
    },
    'paid-event-typed-payment-succeeded': {
      does: 'The paid event carries type "payment.succeeded" (named after the internal state), not the WebhookEventType ' +
        '"payment.paid"; it is routed and signed as payment.paid.',
      breaks: ['HOOK-EVENT-PAID'],
      violates: ['event.types', 'events.type.payment.paid'],
      plant: rewritten((envelope) => (envelope.type === 'payment.paid' ? { ...envelope, type: 'payment.succeeded' } : envelope)),
    },
    'event-livemode-as-string': {
      does: 'Events carry livemode as the string "false" / "true", not a boolean.',
      breaks: ['HOOK-ENVELOPE'],
      violates: ['event.field.livemode#type'],
      plant: rewritten((e) => ({ ...e, livemode: String(e.livemode) })),
    },
    'event-data-unwrapped': {
      does: 'Events carry the Payment itself as data, not { "object": Payment }.',
      breaks: ['HOOK-ENVELOPE'],
      violates: ['event.field.data#present'],
      plant: rewritten((e) => ({ ...e, data: e.data.object as Record<string, unknown> })),
    },
    'event-data-object-is-id': {
      does: 'payment.* events carry the Payment\'s id as data.object (a "thin" event), not the Payment.',
      breaks: ['HOOK-ENVELOPE', 'HOOK-EVENT-CREATED'],
      violates: ['event.field.data#payment'],
      plant: rewritten((e) => {
        const object = e.data.object as { id?: unknown } | null;
        return String(e.type).startsWith('payment.') && object !== null ? { ...e, data: { object: object.id } } : e;
      }),
    },
    'created-event-not-sent': {
      does: 'payment.created is written to the outbox but never dispatched (its worker was never deployed); the other events go out.',
      breaks: ['HOOK-EVENT-CREATED'],
      violates: ['states.create-pending#event', 'emits.createPayment', 'events.type.payment.created'],
      plant: notSent('payment.created'),
    },
    'cancelled-event-not-sent': {
      does: 'payment.cancelled is never dispatched, whichever operation cancelled the Payment; the other events go out.',
      breaks: ['HOOK-EVENT-CANCELLED'],
      violates: ['events.type.payment.cancelled'],
      plant: notSent('payment.cancelled'),
    },
    'reversed-event-not-sent': {
      does: 'payment.reversed is never dispatched; the other events go out.',
      breaks: ['HOOK-EVENT-REVERSED'],
      violates: ['states.reversed#event', 'events.type.payment.reversed'],
      plant: notSent('payment.reversed'),
    },
  },
};

/** An event's recipients as routed. */
export interface Routed {
  readonly ctx: AppContext;
  readonly event: StoredEvent;
  readonly endpoints: readonly WebhookEndpoint[];
}

/** Events of `from` also go to the enabled endpoints of the business in the other environment subscribed to their type. */
function alsoToOtherEnvironment(from: 'test' | 'live'): Override<Routed, readonly WebhookEndpoint[]> {
  return (input, next) => {
    const endpoints = next(input);
    if (input.event.env !== from) return endpoints;
    const other = input.ctx.state.endpoints.filter((e) => e.businessId === input.event.businessId && e.env !== from && e.enabled && (e.events === '*' || e.events.includes(input.event.type)));
    return [...endpoints, ...other];
  };
}

export const EVENT_ROUTED: Step<Routed, readonly WebhookEndpoint[]> = {
  name: "each event to its environment's endpoints only",
  check: ({ endpoints }) => endpoints,
  faulty: {
    'test-events-also-to-live-endpoints': {
      does: 'A Test Payment\'s events also go to the business\'s Live endpoints; Live events are routed correctly.',
      breaks: ['HOOK-ROUTE-ENVIRONMENT'],
      violates: ['routing.environment#test'],
      plant: alsoToOtherEnvironment('test'),
    },
    'live-events-also-to-test-endpoints': {
      does: 'A Live Payment\'s events also go to the business\'s Test endpoints; Test events are routed correctly.',
      breaks: ['HOOK-ROUTE-ENVIRONMENT'],
      violates: ['routing.environment#live'],
      plant: alsoToOtherEnvironment('live'),
    },
  },
};

export const FAULTY_STEPS: readonly PlantingStep[] = [EVENT_MADE, EVENT_ROUTED];
