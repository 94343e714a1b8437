/**
 * Events (spec, "Event (webhook envelope)", "Event types", "Endpoints and routing").
 * An event is created at the moment of its cause; its body bytes are serialised once,
 * here, and every delivery attempt sends exactly those bytes.
 */
import { NO_FAULTS, type FaultSet } from '../faults.ts';
import { newEventId } from '../ids.ts';
import { formatTimestamp } from '../time.ts';
import type { Environment, EventType, StoredEvent, WebhookEndpoint } from '../types.ts';

export interface EventSource {
  businessId: string;
  env: Environment;
  paymentId: string | null;
}

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
  const envelope: { id: string; object: string; api_version: string; type: EventType; livemode: boolean; created_at: string | number; data: { object: unknown } } = {
    id,
    object: 'event',
    api_version: 'v1',
    type,
    livemode,
    created_at: formatTimestamp(at, offset),
    data: { object },
  };
  if (faults.has('event-created-at-epoch-seconds')) {
    /* FAULT event-created-at-epoch-seconds: created_at is serialised as a Unix time number, not a date-time string */
    envelope.created_at = Math.floor(at / 1000);
  }
  if (faults.has('event-livemode-hardcoded-false')) {
    /* FAULT event-livemode-hardcoded-false: the envelope says livemode false whatever the environment */
    envelope.livemode = false;
  }
  if (faults.has('event-api-version-semver')) {
    // FAULT event-api-version-semver: the description document's version ("1.0.0") instead of the API's ("v1").
    envelope.api_version = '1.0.0';
  }
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
export function subscribedEndpoints(endpoints: readonly WebhookEndpoint[], event: StoredEvent, faults: FaultSet = NO_FAULTS): WebhookEndpoint[] {
  const ofBusiness = endpoints.filter((e) => e.businessId === event.businessId);
  if (faults.has('events-routed-across-environments')) {
    /* FAULT events-routed-across-environments: the environment is not compared: Test and Live endpoints alike get the event */
    return ofBusiness.filter((e) => e.enabled && (e.events === '*' || e.events.includes(event.type)));
  }
  if (faults.has('subscription-filter-ignored')) {
    /* FAULT subscription-filter-ignored: the endpoint's chosen event types are not compared: every endpoint gets every event */
    return ofBusiness.filter((e) => e.enabled && e.env === event.env);
  }
  if (faults.has('disabled-endpoint-still-delivered')) {
    /* FAULT disabled-endpoint-still-delivered: the enabled flag is not read */
    return ofBusiness.filter((e) => e.env === event.env && (e.events === '*' || e.events.includes(event.type)));
  }
  const matching = ofBusiness.filter((e) => e.enabled && e.env === event.env && (e.events === '*' || e.events.includes(event.type)));
  if (faults.has('first-subscriber-only')) {
    /* FAULT first-subscriber-only: the first matching endpoint is picked (find instead of filter); the others get nothing */
    return matching.slice(0, 1);
  }
  return matching;
}
