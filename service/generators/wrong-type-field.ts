/**
 * wrongTypeField: a field of CreatePaymentRequest with a JSON value of the wrong type; breaks
 * `CREATE-WRONG-TYPE`.
 *
 * Spec, CreatePaymentRequest: amount, description, merchant_reference, external_id, return_url,
 * customer_id and order_id are strings; metadata is an object; allowed_methods and allowed_channels
 * are arrays. A value of another JSON type is malformed (`invalid_request`, "body or a parameter is
 * malformed") and, where the field has its own code whose condition it also meets, that code too
 * (DESIGN oracle principle 1):
 *
 *   field               wrong values                          codes
 *   amount              number, boolean, array, object        invalid_request, invalid_amount
 *   description         number, boolean, array, object        invalid_request
 *   merchant_reference  number, boolean, array, object        invalid_request
 *   external_id         number, boolean, array, object        invalid_request, invalid_external_id
 *   return_url          number, boolean, array, object        invalid_request, invalid_return_url
 *   customer_id         number, boolean, array, object        invalid_request, invalid_customer
 *   order_id            number, boolean, array, object        invalid_request, order_not_found
 *   metadata            string, number, boolean, array        invalid_request, invalid_metadata
 *   allowed_methods     string, number, boolean, object       invalid_request, invalid_allowed_method
 *   allowed_channels    string, number, boolean, object       invalid_request, invalid_allowed_channel
 *
 * description / merchant_reference: a wrong type is not "too long", so `description_too_long` /
 * `reference_too_long` do not apply. `null` is never used: a target may read a null optional field
 * as absent, which is valid (and for amount, amountNotString covers null).
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import type { ErrorCode } from '../../catalogue/error-codes.ts';
import { CREATE_REQUEST_FIELDS, type CreateRequestField } from './create-payment-request.ts';
import type { InvalidCase } from './invalid-case.ts';
import { show } from './internal/charsets.ts';
import { has, type FieldRules, type FieldViolation } from './internal/field-rule.ts';

/** The offending field and its value. */
export interface FieldValue {
  field: CreateRequestField;
  value: unknown;
}

export interface WrongTypeFieldConstraints {
  /** Fields to pick from. @defaultValue every field of CreatePaymentRequest */
  fields?: readonly CreateRequestField[];
}

type JsonKind = 'string' | 'number' | 'boolean' | 'array' | 'object';

const FIELD_TYPE: Record<CreateRequestField, JsonKind> = {
  amount: 'string',
  description: 'string',
  merchant_reference: 'string',
  external_id: 'string',
  return_url: 'string',
  metadata: 'object',
  allowed_methods: 'array',
  allowed_channels: 'array',
  customer_id: 'string',
  order_id: 'string',
};

/** Every code a target may answer for a wrongly typed field. */
export const WRONG_TYPE_CODES: Record<CreateRequestField, readonly ErrorCode[]> = {
  amount: ['invalid_request', 'invalid_amount'],
  description: ['invalid_request'],
  merchant_reference: ['invalid_request'],
  external_id: ['invalid_request', 'invalid_external_id'],
  return_url: ['invalid_request', 'invalid_return_url'],
  metadata: ['invalid_request', 'invalid_metadata'],
  allowed_methods: ['invalid_request', 'invalid_allowed_method'],
  allowed_channels: ['invalid_request', 'invalid_allowed_channel'],
  customer_id: ['invalid_request', 'invalid_customer'],
  order_id: ['invalid_request', 'order_not_found'],
};

const VALUES: Record<JsonKind, Arbitrary<unknown>> = {
  string: fc.oneof(fc.constantFrom('', 'x', 'BKASH', 'BKASH,NAGAD', '{}'), fc.string({ minLength: 1, maxLength: 10 })),
  number: fc.oneof(fc.integer({ min: -5, max: 1_000_000 }), fc.constantFrom(5, 10.5, 0, 1e21)),
  boolean: fc.boolean(),
  array: fc.constantFrom<unknown[][]>([], ['x'], [1, 2], [['k', 'v']]),
  object: fc.constantFrom<Record<string, unknown>[]>({}, { value: 'x' }, { BKASH: true }),
};

const ARTICLE: Record<JsonKind, string> = {
  string: 'a string',
  number: 'a number',
  boolean: 'a boolean',
  array: 'an array',
  object: 'an object',
};

/** A field of CreatePaymentRequest paired with a value of another JSON type. */
export function wrongTypeField(constraints: WrongTypeFieldConstraints = {}): Arbitrary<InvalidCase<FieldValue>> {
  const fields = [...new Set(constraints.fields ?? CREATE_REQUEST_FIELDS)];
  if (fields.length === 0) throw new RangeError('wrongTypeField: fields must name at least one field');
  return fc.oneof(
    ...fields.map((field) => {
      const expected = FIELD_TYPE[field];
      const wrongKinds = (Object.keys(VALUES) as JsonKind[]).filter((k) => k !== expected);
      return fc.constantFrom(...wrongKinds).chain((kind) =>
        VALUES[kind].map(
          (value): InvalidCase<FieldValue> => ({
            value: { field, value },
            breaks: 'CREATE-WRONG-TYPE',
            codes: WRONG_TYPE_CODES[field],
            why: `${field} ${show(value, 40)} is ${ARTICLE[kind]}, not ${ARTICLE[expected]}`,
          }),
        ),
      );
    }),
  );
}

/** Whether `value` has the JSON type CreatePaymentRequest gives `field` (JSON null has none). */
function typed(field: CreateRequestField, value: unknown): boolean {
  if (field === 'metadata') return value !== null && typeof value === 'object' && !Array.isArray(value);
  if (field === 'allowed_methods' || field === 'allowed_channels') return Array.isArray(value);
  return typeof value === 'string';
}

/** CREATE-WRONG-TYPE in a body, in any field (service/generators/internal/field-rule.ts). */
export const FIELD_RULES: FieldRules<'CREATE-WRONG-TYPE'> = {
  violations: {
    'CREATE-WRONG-TYPE': (slots) =>
      CREATE_REQUEST_FIELDS.filter((f) => slots.includes(f)).map((field) =>
        wrongTypeField({ fields: [field] }).map((c): FieldViolation => ({ slot: field, remove: false, value: c.value.value, case: c })),
      ),
  },
  // every field of CreatePaymentRequest has one JSON type: a string, an object (metadata) or an array (allowed_*)
  oracle: (body) =>
    Object.fromEntries(CREATE_REQUEST_FIELDS.filter((f) => has(body, f) && !typed(f, body[f])).map((f) => [f, ['CREATE-WRONG-TYPE']])),
};
