/**
 * Validation of the createPayment body (spec, "CreatePaymentRequest (JSON body)",
 * "Errors", "Limits"). One small function per field rule, run in the order of
 * `validateCreateRequest`; each throws the ApiError of the rule it checks.
 *
 * A field that is absent or JSON `null` counts as not given (except `amount`, which is
 * required). Unknown fields are ignored.
 */
import { ApiError } from './errors.ts';
import { AMOUNT_PATTERN, MAX_INTEGER_DIGITS, toCents } from './decimal.ts';
import type { RequestBody } from './http-io.ts';
import { COLLECTION_CHANNELS, PAYMENT_METHODS } from './types.ts';

/** Lengths are counted in Unicode code points. */
export const LIMITS = {
  descriptionMax: 1000,
  merchantReferenceMax: 255,
  externalIdMax: 255,
  metadataMaxKeys: 20,
  metadataKeyMax: 64,
  metadataValueMax: 500,
} as const;

export interface CreatePaymentInput {
  amount: string;
  amountCents: bigint;
  description: string | null;
  merchantReference: string | null;
  externalId: string | null;
  returnUrl: string | null;
  metadata: Record<string, string>;
  allowedMethods: string[] | undefined;
  allowedChannels: string[] | undefined;
  customerId: string | null;
  orderId: string | null;
}

type Body = Readonly<Record<string, unknown>>;

/** Steps of the create validation, in order. Each either returns or throws. */
export function validateCreateRequest(body: Body): CreatePaymentInput {
  rejectContextItems(body);
  const { amount, amountCents } = checkAmount(body);
  return {
    amount,
    amountCents,
    description: checkDescription(body),
    merchantReference: checkMerchantReference(body),
    externalId: checkExternalId(body),
    returnUrl: checkReturnUrl(body),
    metadata: checkMetadata(body),
    allowedMethods: checkAllowedMethods(body),
    allowedChannels: checkAllowedChannels(body),
    customerId: checkIdField(body, 'customer_id'),
    orderId: checkIdField(body, 'order_id'),
  };
}

// ---------------------------------------------------------------------------------------
// The body itself

/** `Content-Type: application/json` (parameters allowed), at most 1 MiB, UTF-8, a JSON object. */
export function parseJsonObjectBody(contentType: string | undefined, body: RequestBody): Body {
  if (body.tooLarge) throw invalidRequest('The request body exceeds 1 MiB.');
  if (!isJsonMediaType(contentType)) throw invalidRequest('Content-Type must be application/json.');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body.bytes);
  } catch {
    throw invalidRequest('The request body is not valid UTF-8.');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidRequest('The request body is not valid JSON.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalidRequest('The request body must be a JSON object.');
  }
  return value as Body;
}

export function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase();
  return mediaType === 'application/json';
}

// ---------------------------------------------------------------------------------------
// One function per rule

/** "`context_items` are not accepted and cause a 400 `context_items_not_accepted`" (any shape, even null). */
export function rejectContextItems(body: Body): void {
  if (Object.hasOwn(body, 'context_items')) {
    throw new ApiError('context_items_not_accepted', { param: 'context_items' });
  }
}

/**
 * amount: required; a JSON string matching ^[0-9]+(\.[0-9]{1,2})?$, at most 18 integer
 * digits, value above zero. Kept exactly as received.
 */
export function checkAmount(body: Body): { amount: string; amountCents: bigint } {
  const value = body['amount'];
  if (typeof value !== 'string') {
    throw new ApiError('invalid_amount', {
      param: 'amount',
      message: value === undefined || value === null
        ? 'amount is required.'
        : 'amount must be a decimal string, never a JSON number.',
    });
  }
  if (!AMOUNT_PATTERN.test(value)) throw invalidAmount();
  const integerDigits = value.split('.')[0]?.length ?? 0;
  if (integerDigits > MAX_INTEGER_DIGITS) throw invalidAmount();
  const amountCents = toCents(value);
  if (amountCents <= 0n) throw new ApiError('invalid_amount', { param: 'amount', message: 'amount must be above zero.' });
  return { amount: value, amountCents };
}

/** description: a string of at most 1000 code points. */
export function checkDescription(body: Body): string | null {
  const value = optionalString(body, 'description');
  if (value !== null && codePoints(value) > LIMITS.descriptionMax) {
    throw new ApiError('description_too_long', {
      param: 'description',
      message: `description must be at most ${LIMITS.descriptionMax} characters.`,
    });
  }
  return value;
}

/** merchant_reference: a string of at most 255 code points. */
export function checkMerchantReference(body: Body): string | null {
  const value = optionalString(body, 'merchant_reference');
  if (value !== null && codePoints(value) > LIMITS.merchantReferenceMax) {
    throw new ApiError('reference_too_long', {
      param: 'merchant_reference',
      message: `merchant_reference must be at most ${LIMITS.merchantReferenceMax} characters.`,
    });
  }
  return value;
}

const CONTROL_CHARACTER = /[\u0000-\u001F\u007F-\u009F]/;

/** external_id: a non-empty string, at most 255 code points, no control characters. */
export function checkExternalId(body: Body): string | null {
  const value = body['external_id'];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalidExternalId('external_id must be a string.');
  if (value.length === 0) throw invalidExternalId('external_id must not be empty.');
  if (codePoints(value) > LIMITS.externalIdMax) {
    throw invalidExternalId(`external_id must be at most ${LIMITS.externalIdMax} characters.`);
  }
  if (CONTROL_CHARACTER.test(value)) throw invalidExternalId('external_id must not contain control characters.');
  return value;
}

/** Schemes rejected whatever follows them (spec names the first four; vbscript: is of the same family). */
export const BLOCKED_SCHEMES: ReadonlySet<string> = new Set(['javascript', 'data', 'file', 'intent', 'vbscript']);

/**
 * return_url: an absolute https URL, or a native deep link `<scheme>://...`.
 * The scheme is judged the way a browser would read the URL (WHATWG URL parsing):
 * leading/trailing C0 controls and spaces stripped, tab/CR/LF removed anywhere, the
 * scheme compared case-insensitively. http:, relative references and the blocked
 * schemes are rejected. The value is stored as received.
 */
export function checkReturnUrl(body: Body): string | null {
  const value = body['return_url'];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalidReturnUrl('return_url must be a string.');
  const cleaned = browserView(value);
  const scheme = schemeOf(cleaned);
  if (scheme === null) throw invalidReturnUrl('return_url must be absolute.');
  if (BLOCKED_SCHEMES.has(scheme)) throw invalidReturnUrl(`The ${scheme}: scheme is not allowed.`);
  if (scheme === 'http') throw invalidReturnUrl('return_url must use https, not http.');
  if (!cleaned.slice(scheme.length + 1).startsWith('//')) {
    throw invalidReturnUrl('return_url must be https://host/... or an app deep link scheme://...');
  }
  let parsed: URL;
  try {
    parsed = new URL(cleaned);
  } catch {
    throw invalidReturnUrl('return_url is not a valid URL.');
  }
  if (scheme === 'https' && parsed.hostname === '') throw invalidReturnUrl('return_url must name a host.');
  if (scheme !== 'https' && cleaned.length <= scheme.length + 3) {
    throw invalidReturnUrl('A deep link must have something after scheme://.');
  }
  return value;
}

/** WHATWG URL parser, basic URL parser, first steps: strip C0 control or space, remove ASCII tab or newline. */
export function browserView(input: string): string {
  return input.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
}

/** The lower-cased scheme (RFC 3986 3.1: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"), or null. */
export function schemeOf(url: string): string | null {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url);
  return m?.[1]?.toLowerCase() ?? null;
}

/** metadata: an object of at most 20 entries; keys 1..64 code points; values strings of at most 500. */
export function checkMetadata(body: Body): Record<string, string> {
  const value = body['metadata'];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidMetadata('metadata must be an object.');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > LIMITS.metadataMaxKeys) {
    throw invalidMetadata(`metadata may have at most ${LIMITS.metadataMaxKeys} keys.`);
  }
  for (const [key, item] of entries) {
    if (key.length === 0) throw invalidMetadata('metadata keys must not be empty.');
    if (codePoints(key) > LIMITS.metadataKeyMax) {
      throw invalidMetadata(`metadata keys must be at most ${LIMITS.metadataKeyMax} characters.`);
    }
    if (typeof item !== 'string') throw invalidMetadata('metadata values must be strings.');
    if (codePoints(item) > LIMITS.metadataValueMax) {
      throw invalidMetadata(`metadata values must be at most ${LIMITS.metadataValueMax} characters.`);
    }
  }
  // Object.fromEntries defines own properties: a "__proto__" key stays a plain key.
  return Object.fromEntries(entries) as Record<string, string>;
}

/** allowed_methods: an array whose items are exactly BKASH or NAGAD. Echoed as given. */
export function checkAllowedMethods(body: Body): string[] | undefined {
  return enumArray(body, 'allowed_methods', PAYMENT_METHODS, 'invalid_allowed_method');
}

/** allowed_channels: an array whose items are exactly one of the four channel values. Echoed as given. */
export function checkAllowedChannels(body: Body): string[] | undefined {
  return enumArray(body, 'allowed_channels', COLLECTION_CHANNELS, 'invalid_allowed_channel');
}

/** customer_id / order_id: a string when given (whether it exists is checked later, in order-checks.ts). */
export function checkIdField(body: Body, field: 'customer_id' | 'order_id'): string | null {
  return optionalString(body, field);
}

// ---------------------------------------------------------------------------------------
// Helpers

function enumArray(
  body: Body,
  field: string,
  allowed: readonly string[],
  code: 'invalid_allowed_method' | 'invalid_allowed_channel',
): string[] | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new ApiError(code, { param: field, message: `${field} must be an array.` });
  for (const item of value) {
    if (typeof item !== 'string' || !allowed.includes(item)) {
      throw new ApiError(code, { param: field, message: `${field} may only contain ${allowed.join(', ')}.` });
    }
  }
  return [...(value as string[])];
}

/** A string field that is optional; another JSON type → 400 `invalid_request` naming it. */
function optionalString(body: Body, field: string): string | null {
  const value = body[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') {
    throw new ApiError('invalid_request', { param: field, message: `${field} must be a string.` });
  }
  return value;
}

export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

function invalidRequest(message: string): ApiError {
  return new ApiError('invalid_request', { message });
}

function invalidAmount(): ApiError {
  return new ApiError('invalid_amount', {
    param: 'amount',
    message: 'amount must be a positive decimal string with at most two decimals and 18 integer digits.',
  });
}

function invalidExternalId(message: string): ApiError {
  return new ApiError('invalid_external_id', { param: 'external_id', message });
}

function invalidReturnUrl(message: string): ApiError {
  return new ApiError('invalid_return_url', { param: 'return_url', message });
}

function invalidMetadata(message: string): ApiError {
  return new ApiError('invalid_metadata', { param: 'metadata', message });
}
