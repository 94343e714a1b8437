/**
 * PaymentList, the response of listPayments (spec: "Resources and their fields" > "PaymentList").
 * Additional properties allowed (additive evolution), as for every response schema (see ./payment.ts).
 */
import type { SchemaObject } from 'ajv';
import { JSON_SCHEMA_DIALECT, SCHEMA_BASE } from './enums.ts';
import type { Payment } from './payment.ts';

export const PaymentListSchema = {
  $schema: JSON_SCHEMA_DIALECT,
  $id: `${SCHEMA_BASE}PaymentList.json`,
  title: 'PaymentList',
  description: 'One page of Payments.',
  type: 'object',
  required: ['object', 'data', 'has_more'],
  properties: {
    object: { const: 'list' },
    data: { type: 'array', items: { $ref: 'Payment.json' } },
    has_more: { type: 'boolean' },
    next_cursor: { type: ['string', 'null'] },
  },
} as const satisfies SchemaObject;

export interface PaymentList {
  object: 'list';
  data: Payment[];
  has_more: boolean;
  next_cursor?: string | null;
  [extra: string]: unknown;
}
