/**
 * Events (spec, "Event (webhook envelope)", "Event types", "Endpoints and routing").
 * An event is created at the moment of its cause; its body bytes are serialised once,
 * here, and every delivery attempt sends exactly those bytes.
 *
 * The planted faults of this file are overrides named after the defect, in the `faulty` table of
 * the step they break (references/service/steps.ts says how an override replaces a check).
 */
import { NO_FAULTS, type FaultSet } from '../faults.ts';
import { newEventId } from '../ids.ts';
import { checkOf, type PlantingStep, type Step } from '../steps.ts';
import { formatTimestamp } from '../time.ts';
import type { Environment, EventType, StoredEvent, WebhookEndpoint } from '../types.ts';

export interface EventSource {
  businessId: string;
  env: Environment;
  paymentId: string | null;
}

type Envelope = { id: string; object: string; api_version: string; type: EventType; livemode: boolean; created_at: string | number; data: { object: unknown } };

interface EnvelopeInput {
  readonly id: string;
  readonly type: EventType;
  readonly livemode: boolean;
  readonly object: unknown;
  readonly at: number;
  readonly offset: 'Z' | '+00:00';
}

/** The Event envelope: id, object "event", api_version "v1", type, livemode, created_at (RFC 3339), data.object. */
const ENVELOPE: Step<EnvelopeInput, Envelope> = {
  name: 'the Event envelope',
  check: ({ id, type, livemode, object, at, offset }) => ({
    id,
    object: 'event',
    api_version: 'v1',
    type,
    livemode,
    created_at: formatTimestamp(at, offset),
    data: { object },
  }),
  faulty: {
    'endpoint-test-data-without-object': {
      does: 'endpoint.test events carry the synthetic test fields straight in data ({"endpoint": …, "message": …}), with no ' +
        'data.object: only payment events were given the data.object wrapper.',
      breaks: ['HOOK-ENVELOPE'],
      violates: ['event.field.data#present'],
      plant: (input, next) => {
        const envelope = next(input);
        if (input.type !== 'endpoint.test') return envelope;
        const { object: _type, ...fields } = (input.object ?? {}) as Record<string, unknown>;
        return { ...envelope, data: fields as unknown as Envelope['data'] };
      },
    },
    'event-created-at-epoch-seconds': {
      does: 'The event\'s created_at is serialised as a Unix time number, not a date-time string.',
      breaks: ['HOOK-ENVELOPE'],
      violates: ['event.field.created_at#type'],
      plant: (input, next) => ({ ...next(input), created_at: Math.floor(input.at / 1000) }),
    },
    'event-livemode-hardcoded-false': {
      does: 'Every event says livemode false, Live Payments\' included.',
      breaks: ['HOOK-ENVELOPE', 'HOOK-EVENT-CREATED', 'HOOK-EVENT-CANCELLED'],
      violates: ['event.field.livemode#meaning'],
      plant: (input, next) => ({ ...next(input), livemode: false }),
    },
    'event-api-version-semver': {
      does: 'Events carry the description document\'s version ("1.0.0") as api_version instead of "v1".',
      breaks: ['VERS-EVENT-API-VERSION'],
      violates: ['event.field.api_version', 'versioning.event-api-version'],
      plant: (input, next) => ({ ...next(input), api_version: '1.0.0' }),
    },
  },
};

export function createEvent(
  type: EventType,
  source: EventSource,
  object: unknown,
  at: number,
  faults: FaultSet = NO_FAULTS,
  offset: 'Z' | '+00:00' = 'Z',
): StoredEvent {
  const id = newEventId();
  const livemode = source.env === 'live';
  const envelope = checkOf(ENVELOPE, faults)({ id, type, livemode, object, at, offset });
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

const subscribed = (e: WebhookEndpoint, event: StoredEvent) => e.events === '*' || e.events.includes(event.type);

/** Enabled endpoints of the event's business, in the same environment, subscribed to its type (faults outermost last: the last listed wins). */
const ROUTING: Step<{ readonly ofBusiness: readonly WebhookEndpoint[]; readonly event: StoredEvent }, WebhookEndpoint[]> = {
  name: "the event goes to every enabled endpoint of its business and environment subscribed to its type",
  check: ({ ofBusiness, event }) => ofBusiness.filter((e) => e.enabled && e.env === event.env && subscribed(e, event)),
  faulty: {
    'first-subscriber-only': {
      does: 'Routing picks the first matching endpoint (find instead of filter): other subscribed endpoints get nothing.',
      breaks: ['HOOK-AT-LEAST-ONCE'],
      violates: ['receiver-op.post-to-subscribed-endpoints#every-enabled-endpoint'],
      plant: (input, next) => next(input).slice(0, 1),
    },
    'disabled-endpoint-still-delivered': {
      does: 'Routing ignores the enabled flag: a disabled endpoint still receives events.',
      breaks: ['HOOK-ROUTE-DISABLED'],
      violates: ['routing.disabled-receives-nothing'],
      plant: ({ ofBusiness, event }) => ofBusiness.filter((e) => e.env === event.env && subscribed(e, event)),
    },
    'subscription-filter-ignored': {
      does: 'Routing ignores the endpoints\' chosen event types: every endpoint gets every event.',
      breaks: ['HOOK-ROUTE-SUBSCRIPTION'],
      violates: ['receiver-op.post-to-subscribed-endpoints#subscribed-only'],
      plant: ({ ofBusiness, event }) => ofBusiness.filter((e) => e.enabled && e.env === event.env),
    },
    'events-routed-across-environments': {
      does: 'Routing ignores the environment: a Payment\'s events go to the business\'s Test and Live endpoints alike.',
      breaks: ['HOOK-ROUTE-ENVIRONMENT'],
      violates: ['receiver-op.post-to-subscribed-endpoints#same-environment'],
      plant: ({ ofBusiness, event }) => ofBusiness.filter((e) => e.enabled && subscribed(e, event)),
    },
  },
};

/** Enabled endpoints of the event's business, in the same environment, subscribed to its type (or "*"). */
export function subscribedEndpoints(endpoints: readonly WebhookEndpoint[], event: StoredEvent, faults: FaultSet = NO_FAULTS): WebhookEndpoint[] {
  return checkOf(ROUTING, faults)({ ofBusiness: endpoints.filter((e) => e.businessId === event.businessId), event });
}

/** The steps of this file that plant faults (references/service/fault-registry.ts reads their declarations). */
export const FAULTY_STEPS: readonly PlantingStep[] = [ENVELOPE, ROUTING];
