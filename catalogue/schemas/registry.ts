/**
 * Every schema resource of this folder, by name, and their one-time registration in the project's
 * Ajv instance (./ajv.ts). Schemas refer to each other by relative `$ref` ("Payment.json"), resolved
 * against their `$id`s under SCHEMA_BASE, so all resources are added before any is compiled.
 */
import type { SchemaObject } from 'ajv';
import { ajv, ajvFirstError } from './ajv.ts';
import { CreatePaymentRequestSchema } from './create-payment-request.ts';
import { ENUM_SCHEMAS, SCHEMA_BASE } from './enums.ts';
import { ErrorSchema } from './error.ts';
import { EventSchema } from './event.ts';
import { PaymentListSchema } from './payment-list.ts';
import { MetadataSchema, PaymentSchema } from './payment.ts';

/** The schemas the suite validates messages against. */
export const SCHEMAS = {
  Payment: PaymentSchema,
  PaymentList: PaymentListSchema,
  Error: ErrorSchema,
  Event: EventSchema,
  CreatePaymentRequest: CreatePaymentRequestSchema,
} as const satisfies Record<string, SchemaObject>;

export type SchemaName = keyof typeof SCHEMAS;
export const SCHEMA_NAMES = Object.keys(SCHEMAS) as SchemaName[];

/**
 * All schema resources, keyed by their name (the file name of the `$id` without `.json`): the five
 * message schemas, Metadata and the four open enumerations. The OpenAPI document's
 * `components.schemas` carries exactly these, under the same names.
 */
export const SCHEMA_RESOURCES: Readonly<Record<string, SchemaObject>> = Object.fromEntries(
  [...Object.values(SCHEMAS), MetadataSchema, ...Object.values(ENUM_SCHEMAS)].map((s) => [
    resourceName(s.$id),
    s,
  ]),
);

/** "https://hps-conformance.dev/schemas/Payment.json" -> "Payment". */
export function resourceName(id: string): string {
  if (!id.startsWith(SCHEMA_BASE) || !id.endsWith('.json')) {
    throw new Error(`not a schema id of this folder: ${id}`);
  }
  return id.slice(SCHEMA_BASE.length, -'.json'.length);
}

/** The resource whose `$id` is `id` (no fragment), if it is one of ours. */
export function resourceById(id: string): SchemaObject | undefined {
  if (!id.startsWith(SCHEMA_BASE) || !id.endsWith('.json')) return undefined;
  return SCHEMA_RESOURCES[resourceName(id)];
}

let registered = false;

/** Adds every resource to the shared Ajv instance, once. Compilation stays lazy (see ./validate.ts). */
export function registerSchemas(): void {
  if (registered) return;
  for (const schema of Object.values(SCHEMA_RESOURCES)) {
    const id = schema.$id as string;
    for (const a of [ajv, ajvFirstError]) if (a.schemas[id] === undefined) a.addSchema(schema, undefined, undefined, false);
  }
  registered = true;
}
