/**
 * Payment, the response resource (spec: "Resources and their fields" > "Payment").
 *
 * Decisions, for every response schema of this folder:
 * - Additional properties are ALLOWED (no `additionalProperties: false`): v1 evolves additively
 *   (spec "Versioning"), so a field the table does not list is not a violation. Only the listed
 *   fields are constrained.
 * - Optional fields ("Required: no") may be absent; a field typed "string or null" may be null;
 *   a field typed without "or null" (metadata, allowed_methods, allowed_channels) may be absent but
 *   not null.
 * - Enumerations are open: `$ref` to the PaymentStatus / PaymentMethod / CollectionChannel
 *   resources of ./enums.ts, which carry `x-known-values` and no `enum`.
 */
import type { SchemaObject } from 'ajv';
import { JSON_SCHEMA_DIALECT, SCHEMA_BASE } from './enums.ts';

/**
 * A returned amount: "decimal string, BDT major units", never a JSON number. The exact form
 * (trailing zeros, number of decimals) of a returned amount is OBSERVE (DESIGN), so this accepts
 * any plain unsigned decimal: digits, optionally a dot and digits. No sign, exponent or blanks.
 */
export const RESPONSE_AMOUNT_PATTERN = '^[0-9]+(\\.[0-9]+)?$';

/** Metadata: an object with string keys and string values (limits apply on create only). */
export const MetadataSchema = {
  $schema: JSON_SCHEMA_DIALECT,
  $id: `${SCHEMA_BASE}Metadata.json`,
  title: 'Metadata',
  description:
    'String keys and string values supplied by the developer. Never shown to the customer, never used ' +
    'for financial matching.',
  type: 'object',
  additionalProperties: { type: 'string' },
} as const satisfies SchemaObject;

export const PaymentSchema = {
  $schema: JSON_SCHEMA_DIALECT,
  $id: `${SCHEMA_BASE}Payment.json`,
  title: 'Payment',
  description: 'A hosted checkout Payment.',
  type: 'object',
  required: ['id', 'object', 'livemode', 'status', 'amount', 'currency', 'created_at'],
  properties: {
    id: { type: 'string', description: 'Payment identifier.' },
    object: { const: 'payment' },
    livemode: { type: 'boolean', description: 'false for Test, true for Live.' },
    status: { $ref: 'PaymentStatus.json' },
    amount: {
      type: 'string',
      pattern: RESPONSE_AMOUNT_PATTERN,
      description: 'Decimal string, BDT major units; never a JSON number.',
    },
    currency: { const: 'BDT' },
    description: { type: ['string', 'null'] },
    merchant_reference: {
      type: ['string', 'null'],
      description: 'Business reference, distinct from external_id.',
    },
    external_id: { type: ['string', 'null'], description: "The merchant's correlation id." },
    metadata: { $ref: 'Metadata.json' },
    allowed_methods: { type: 'array', items: { $ref: 'PaymentMethod.json' } },
    allowed_channels: { type: 'array', items: { $ref: 'CollectionChannel.json' } },
    return_url: { type: ['string', 'null'] },
    checkout_url: {
      type: ['string', 'null'],
      description: 'Hosted checkout address to send the customer to.',
    },
    created_at: { type: 'string', format: 'date-time' },
    paid_at: { type: ['string', 'null'], format: 'date-time' },
    cancelled_at: { type: ['string', 'null'], format: 'date-time' },
  },
} as const satisfies SchemaObject;

/** The Payment as TypeScript sees it once `validate('Payment', x)` passed (open enums: plain strings). */
export interface Payment {
  id: string;
  object: 'payment';
  livemode: boolean;
  /** A PaymentStatus, or a value added later within v1. */
  status: string;
  amount: string;
  currency: 'BDT';
  description?: string | null;
  merchant_reference?: string | null;
  external_id?: string | null;
  metadata?: Record<string, string>;
  allowed_methods?: string[];
  allowed_channels?: string[];
  return_url?: string | null;
  checkout_url?: string | null;
  created_at: string;
  paid_at?: string | null;
  cancelled_at?: string | null;
  [extra: string]: unknown;
}
