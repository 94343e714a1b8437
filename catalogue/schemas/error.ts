/**
 * Error, the body of every error response (spec: "Resources and their fields" > "Error", and "Errors").
 *
 * `{ error: { code, message, param?, request_id } }`; code, message and request_id always present.
 * Additional properties allowed at both levels (additive evolution, see ./payment.ts).
 * `code` is open ("clients treat [it] as open (new codes may be added)"): it carries the codes of the
 * spec's error table as `x-known-values`, never `enum`, so an unlisted code validates and
 * `unknownEnumValues('Error', body)` lists it (WARN), exactly like an unknown PaymentStatus.
 */
import type { SchemaObject } from 'ajv';
import { ERROR_CODES } from '../error-codes.ts';
import { JSON_SCHEMA_DIALECT, SCHEMA_BASE } from './enums.ts';

export const ErrorSchema = {
  $schema: JSON_SCHEMA_DIALECT,
  $id: `${SCHEMA_BASE}Error.json`,
  title: 'Error',
  description: 'Every error response has this shape.',
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'request_id'],
      properties: {
        code: {
          type: 'string',
          description: 'Stable machine-readable code; open set (new codes may be added).',
          'x-known-values': ERROR_CODES,
        },
        message: { type: 'string' },
        param: { type: 'string', description: 'Names the offending parameter, when there is one.' },
        request_id: { type: 'string', description: 'Quoted to support.' },
      },
    },
  },
} as const satisfies SchemaObject;

export interface ErrorBody {
  error: {
    code: string;
    message: string;
    param?: string;
    request_id: string;
    [extra: string]: unknown;
  };
  [extra: string]: unknown;
}
