/**
 * CreatePaymentRequest, the JSON body of createPayment (spec: "Resources and their fields" >
 * "CreatePaymentRequest", "Metadata", and "Limits").
 *
 * It encodes the rules a JSON Schema can state. Rules that need the target's data (external_id unique
 * per business and livemode, customer_id / order_id belonging to the business, order due, order not
 * cancelled) are checked by the suite against the target, not here. Maximum lengths of description,
 * merchant_reference and external_id are "not shown", so none is stated.
 *
 * What passing this schema means: the body is CLEARLY VALID in the schema-checkable sense. A body that
 * fails it is either clearly invalid or borderline (DESIGN, oracle principle 2: amount "007" or "1.",
 * an unusual custom return_url scheme); a suite must not assert that a target rejects a body on this
 * schema's word alone when the value is borderline.
 *
 * Unknown members: the spec neither allows nor forbids them (only `context_items` is named as not
 * accepted), so `additionalProperties` is left open.
 */
import type { SchemaObject } from 'ajv';
import { JSON_SCHEMA_DIALECT, SCHEMA_BASE, strictEnum } from './enums.ts';
import type { CollectionChannel, PaymentMethod } from './enums.ts';

/**
 * amount: "positive decimal string with at most two decimals, never a JSON number".
 * - `(0|[1-9][0-9]*)` integer part without leading zeros ("007" is borderline, so not claimed valid);
 * - `(\.[0-9]{1,2})?` at most two decimals, at least one digit after a dot ("1." is borderline);
 * - the lookahead `(?=[0-9.]*[1-9])` demands a non-zero digit, i.e. "positive" ("0", "0.00" fail).
 * A regular expression only approximates "positive decimal": the suite compares amounts as decimals
 * (DESIGN, principle 4) and never relies on this pattern for arithmetic. No upper bound is stated by
 * the spec, so none here ("12345678901234567.89" is valid).
 */
export const REQUEST_AMOUNT_PATTERN = '^(?=[0-9.]*[1-9])(0|[1-9][0-9]*)(\\.[0-9]{1,2})?$';

/**
 * return_url: "absolute https URL, or a native-app deep link scheme; `javascript:`, `data:`, `file:`
 * and `intent:` are always rejected". A schema can state: it starts with a URI scheme (absolute,
 * RFC 3986 `scheme ":"`), and that scheme is none of the always-rejected ones. `http:` is added to
 * them: it is neither https nor a native-app scheme. Schemes are case-insensitive (RFC 3986 3.1), and
 * patterns have no flags, hence the letter classes. Whether an unusual custom scheme is a "native-app
 * deep link" is borderline and left to observation.
 */
export const RETURN_URL_SCHEME_PATTERN = '^[A-Za-z][A-Za-z0-9+.-]*:';
export const RETURN_URL_REJECTED_SCHEME_PATTERN =
  '^(?:[jJ][aA][vV][aA][sS][cC][rR][iI][pP][tT]|[dD][aA][tT][aA]|[fF][iI][lL][eE]|[iI][nN][tT][eE][nN][tT]|[hH][tT][tT][pP]):';

/** Limits (spec "Limits"): metadata keys, key length, value length. */
export const METADATA_MAX_KEYS = 20;
export const METADATA_MAX_KEY_LENGTH = 64;
export const METADATA_MAX_VALUE_LENGTH = 500;

export const CreatePaymentRequestSchema = {
  $schema: JSON_SCHEMA_DIALECT,
  $id: `${SCHEMA_BASE}CreatePaymentRequest.json`,
  title: 'CreatePaymentRequest',
  description: 'JSON body of createPayment.',
  type: 'object',
  required: ['amount'],
  properties: {
    amount: {
      type: 'string',
      pattern: REQUEST_AMOUNT_PATTERN,
      description: 'Positive decimal string, BDT major units, at most two decimals; never a JSON number.',
    },
    description: { type: 'string' },
    merchant_reference: { type: 'string', description: 'Human/business reference.' },
    external_id: {
      type: 'string',
      description: 'Unique per business and per livemode when set.',
    },
    return_url: {
      type: 'string',
      pattern: RETURN_URL_SCHEME_PATTERN,
      not: { pattern: RETURN_URL_REJECTED_SCHEME_PATTERN },
      description:
        'Absolute https URL or a native-app deep link. javascript:, data:, file: and intent: are always ' +
        'rejected. Never proof of payment.',
    },
    metadata: {
      type: 'object',
      description:
        'At most 20 keys, keys at most 64 characters, values at most 500 characters. ' +
        '(JSON Schema lengths count Unicode code points; a target counting UTF-16 units or graphemes ' +
        'differs only on borderline keys such as emoji, which the suite observes.)',
      maxProperties: METADATA_MAX_KEYS,
      propertyNames: { type: 'string', maxLength: METADATA_MAX_KEY_LENGTH },
      additionalProperties: { type: 'string', maxLength: METADATA_MAX_VALUE_LENGTH },
    },
    allowed_methods: { type: 'array', items: strictEnum('PaymentMethod') },
    allowed_channels: { type: 'array', items: strictEnum('CollectionChannel') },
    customer_id: { type: 'string', description: "Must belong to the caller's business." },
    order_id: {
      type: 'string',
      description:
        "Must exist for the caller's business; the payment's customer must match the order's customer; " +
        "amount must not exceed the order's remaining due; the order must not be cancelled.",
    },
    // "`context_items` are not accepted and cause a 400 `context_items_not_accepted`."
    // A `false` subschema forbids the member; it is written here rather than as
    // `not: { required: ['context_items'] }` because Ajv's strictRequired rejects a `required`
    // naming a property the schema does not define, and because the error then points at
    // /context_items itself.
    context_items: false,
  },
} as const satisfies SchemaObject;

export interface CreatePaymentRequest {
  amount: string;
  description?: string;
  merchant_reference?: string;
  external_id?: string;
  return_url?: string;
  metadata?: Record<string, string>;
  allowed_methods?: PaymentMethod[];
  allowed_channels?: CollectionChannel[];
  customer_id?: string;
  order_id?: string;
}
