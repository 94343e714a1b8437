/**
 * Event, the webhook envelope (spec: "Resources and their fields" > "Event (webhook envelope)", and
 * "Events" > "Delivery request").
 *
 * - `id` has the `evt_` prefix; `object` is always `event`; `api_version` is always `v1`.
 * - `type` is open (new event types may be added): `$ref` WebhookEventType, `x-known-values`, no `enum`.
 * - `data` is an object with an `object` member. "For `payment.*` events `data.object` is a Payment":
 *   stated with if/then on the `payment.` prefix of `type`, so a payment event type added later is
 *   still checked as a Payment, while `endpoint.test` (no Payment) and unknown types only need
 *   `data.object` to be present.
 * - Additional properties allowed (additive evolution, see ./payment.ts).
 */
import type { SchemaObject } from 'ajv';
import { JSON_SCHEMA_DIALECT, SCHEMA_BASE } from './enums.ts';
import type { Payment } from './payment.ts';

export const EVENT_ID_PATTERN = '^evt_';

/** Header `Service-Signature`: `t=<unix_time>,v1=<hex>`, v1 the lowercase hex HMAC-SHA256 (64 digits). */
export const SERVICE_SIGNATURE_PATTERN = '^t=[0-9]+,v1=[0-9a-f]{64}$';

/** Header `User-Agent` of every delivery. */
export const WEBHOOK_USER_AGENT = 'Service-Webhooks/1.0';

export const EventSchema = {
  $schema: JSON_SCHEMA_DIALECT,
  $id: `${SCHEMA_BASE}Event.json`,
  title: 'Event',
  description:
    'Webhook envelope. Generated once per logical event; every retry carries the same id and body. ' +
    'For payment.* events data.object is the Payment as GET /payments/{id} returned it when the event was ' +
    'created (snapshot, never regenerated for retries).',
  type: 'object',
  required: ['id', 'object', 'api_version', 'type', 'livemode', 'created_at', 'data'],
  properties: {
    id: { type: 'string', pattern: EVENT_ID_PATTERN },
    object: { const: 'event' },
    api_version: { const: 'v1' },
    type: { $ref: 'WebhookEventType.json' },
    livemode: { type: 'boolean' },
    created_at: { type: 'string', format: 'date-time' },
    data: {
      type: 'object',
      required: ['object'],
      properties: {
        object: { description: 'A Payment for payment.* events.' },
      },
    },
  },
  if: {
    // `type: 'object'` is redundant here but lets the subschema compile on its own in strict mode
    // (unknownEnumValues evaluates `#/if` separately to choose the branch).
    type: 'object',
    required: ['type'],
    properties: { type: { type: 'string', pattern: '^payment\\.' } },
  },
  then: {
    properties: {
      data: { type: 'object', properties: { object: { $ref: 'Payment.json' } } },
    },
  },
} as const satisfies SchemaObject;

export interface Event {
  id: string;
  object: 'event';
  api_version: 'v1';
  /** A WebhookEventType, or a type added later. */
  type: string;
  livemode: boolean;
  created_at: string;
  /** `object` is a Payment when `type` starts with `payment.`; see `isPaymentEvent`. */
  data: { object: unknown; [extra: string]: unknown };
  [extra: string]: unknown;
}

/** A payment.* Event, whose data.object is a Payment (once `validate('Event', x)` passed). */
export interface PaymentEvent extends Event {
  data: { object: Payment; [extra: string]: unknown };
}

export function isPaymentEvent(event: Event): event is PaymentEvent {
  return event.type.startsWith('payment.');
}
