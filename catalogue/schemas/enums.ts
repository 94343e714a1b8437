/**
 * The enumerations of the spec (section "Resources and their fields" > "Enumerations",
 * and "Event (webhook envelope)" for WebhookEventType), as data and as JSON Schemas.
 *
 * Two readings of the same value list, on purpose:
 *
 * - Responses are OPEN. "Clients must tolerate unknown values of PaymentStatus, PaymentMethod and
 *   CollectionChannel when reading responses" and, in Versioning, new values and event types "may be
 *   added". So a response schema never uses `enum`: it says `{ type: 'string', 'x-known-values': [...] }`.
 *   Ajv accepts any string there (`x-known-values` is an annotation registered in ./ajv.ts), and
 *   `unknownEnumValues()` (./unknown-values.ts) lists the values outside the known list, which the
 *   suite reports as WARN, never FAIL (DESIGN, oracle principle 3).
 * - Requests are STRICT: "Request filters are strict". The request-side schemas use `enum`.
 */
import type { SchemaObject } from 'ajv';

export const SCHEMA_BASE = 'https://hps-conformance.dev/schemas/';
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** PaymentStatus: only the statuses observable through the API. */
export const PAYMENT_STATUSES = ['PENDING', 'PAID', 'CANCELLED', 'REVERSED'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** PaymentMethod: provider codes. */
export const PAYMENT_METHODS = ['BKASH', 'NAGAD'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** CollectionChannel: how the customer pays (Send Money, Payment, Cash In, Bank/Card Add Money). */
export const COLLECTION_CHANNELS = ['SEND_MONEY', 'PAYMENT', 'CASH_IN', 'BANK_TRANSFER'] as const;
export type CollectionChannel = (typeof COLLECTION_CHANNELS)[number];

/** WebhookEventType: the `type` of an Event. Receivers ignore types they do not recognise. */
export const WEBHOOK_EVENT_TYPES = [
  'payment.created',
  'payment.paid',
  'payment.cancelled',
  'payment.reversed',
  'endpoint.test',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The four enumerations by the spec's names. */
export const ENUMERATIONS = {
  PaymentStatus: PAYMENT_STATUSES,
  PaymentMethod: PAYMENT_METHODS,
  CollectionChannel: COLLECTION_CHANNELS,
  WebhookEventType: WEBHOOK_EVENT_TYPES,
} as const;
export type EnumerationName = keyof typeof ENUMERATIONS;

// ---------------------------------------------------------------------------------------------
// Response side: open enumerations, one schema resource each, referenced by $ref from Payment and
// Event so that the OpenAPI document gets one named component per enumeration.

export const PaymentStatusSchema = {
  $schema: JSON_SCHEMA_DIALECT,
  $id: `${SCHEMA_BASE}PaymentStatus.json`,
  title: 'PaymentStatus',
  description:
    'Status of a Payment, as observable through the API. REVERSED reflects the service\'s own ' +
    'financial record and does not imply a provider-side transfer back to the customer. ' +
    'Open: clients tolerate values added later within v1.',
  type: 'string',
  'x-known-values': PAYMENT_STATUSES,
} as const satisfies SchemaObject;

export const PaymentMethodSchema = {
  $schema: JSON_SCHEMA_DIALECT,
  $id: `${SCHEMA_BASE}PaymentMethod.json`,
  title: 'PaymentMethod',
  description: 'Provider code. Open: clients tolerate values added later within v1.',
  type: 'string',
  'x-known-values': PAYMENT_METHODS,
} as const satisfies SchemaObject;

export const CollectionChannelSchema = {
  $schema: JSON_SCHEMA_DIALECT,
  $id: `${SCHEMA_BASE}CollectionChannel.json`,
  title: 'CollectionChannel',
  description:
    'How the customer pays: Send Money, Payment, Cash In, Bank/Card Add Money. ' +
    'Open: clients tolerate values added later within v1.',
  type: 'string',
  'x-known-values': COLLECTION_CHANNELS,
} as const satisfies SchemaObject;

export const WebhookEventTypeSchema = {
  $schema: JSON_SCHEMA_DIALECT,
  $id: `${SCHEMA_BASE}WebhookEventType.json`,
  title: 'WebhookEventType',
  description:
    'Type of a webhook Event. New event types may be added; receivers ignore types they do not recognise.',
  type: 'string',
  'x-known-values': WEBHOOK_EVENT_TYPES,
} as const satisfies SchemaObject;

/** The open (response-side) enumeration schemas by the spec's names. */
export const ENUM_SCHEMAS = {
  PaymentStatus: PaymentStatusSchema,
  PaymentMethod: PaymentMethodSchema,
  CollectionChannel: CollectionChannelSchema,
  WebhookEventType: WebhookEventTypeSchema,
} as const satisfies Record<EnumerationName, SchemaObject>;

// ---------------------------------------------------------------------------------------------
// Request side: strict enumerations ("Request filters are strict"), inlined where used.

/** `{ type: 'string', enum: [...] }` for a request field or query parameter. */
export function strictEnum<N extends EnumerationName>(
  name: N,
): { readonly type: 'string'; readonly enum: (typeof ENUMERATIONS)[N] } {
  return { type: 'string', enum: ENUMERATIONS[name] };
}
