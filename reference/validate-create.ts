/**
 * Validation of the createPayment body (spec, "CreatePaymentRequest (JSON body)",
 * "Errors", "Limits"). One small function per field rule, run in the order of
 * `validateCreateRequest`; each throws the ApiError of the rule it checks.
 *
 * A field that is absent or JSON `null` counts as not given (except `amount`, which is
 * required). Unknown fields are ignored.
 */
import { ApiError, type ErrorCode } from './errors.ts';
import { AMOUNT_PATTERN, MAX_INTEGER_DIGITS, toCents } from './decimal.ts';
import type { RequestBody } from './http-io.ts';
import { COLLECTION_CHANNELS, PAYMENT_METHODS } from './types.ts';
import { NO_FAULTS, type FaultSet } from './faults.ts';

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
/** The variant's choices that shape validation (reference/decisions.ts). */
export interface CreateRules {
  precedence: 'amount-first' | 'amount-last';
  lengths: { description: number; merchantReference: number; externalId: number };
}

export const DEFAULT_CREATE_RULES: CreateRules = {
  precedence: 'amount-first',
  lengths: { description: LIMITS.descriptionMax, merchantReference: LIMITS.merchantReferenceMax, externalId: LIMITS.externalIdMax },
};

export function validateCreateRequest(body: Body, faults: FaultSet = NO_FAULTS, rules: CreateRules = DEFAULT_CREATE_RULES): CreatePaymentInput {
  const max = rules.lengths;
  if (faults.has('validation-errors-aggregated')) {
    /* FAULT validation-errors-aggregated: every field rule runs and, when more than one fails, the errors are merged into one generic 400 invalid_request */
    const failed: ApiError[] = [];
    const steps: Array<() => unknown> = [
      () => rejectContextItems(body, faults), () => checkAmount(body, faults), () => checkDescription(body, faults),
      () => checkMerchantReference(body, faults), () => checkExternalId(body, faults), () => checkReturnUrl(body, faults),
      () => checkMetadata(body, faults), () => checkAllowedMethods(body, faults), () => checkAllowedChannels(body, faults),
      () => checkIdField(body, 'customer_id', faults), () => checkIdField(body, 'order_id', faults),
    ];
    for (const step of steps) {
      try {
        step();
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        failed.push(err);
      }
    }
    if (failed.length > 1) throw invalidRequest(`${failed.length} fields are invalid: ${failed.map((e) => e.param ?? e.code).join(', ')}.`);
  }
  if (rules.precedence === 'amount-last') runFieldRulesInReverse(body, faults, max);
  rejectContextItems(body, faults);
  const { amount, amountCents } = checkAmount(body, faults);
  return {
    amount,
    amountCents,
    description: checkDescription(body, faults, max.description),
    merchantReference: checkMerchantReference(body, faults, max.merchantReference),
    externalId: checkExternalId(body, faults, max.externalId),
    returnUrl: checkReturnUrl(body, faults),
    metadata: checkMetadata(body, faults),
    allowedMethods: checkAllowedMethods(body, faults),
    allowedChannels: checkAllowedChannels(body, faults),
    customerId: checkIdField(body, 'customer_id', faults),
    orderId: checkIdField(body, 'order_id', faults),
  };
}

/** The fields of CreatePaymentRequest, plus context_items (which has its own error). */
export const KNOWN_CREATE_FIELDS: ReadonlySet<string> = new Set([
  'amount', 'description', 'merchant_reference', 'external_id', 'return_url', 'metadata',
  'allowed_methods', 'allowed_channels', 'customer_id', 'order_id', 'context_items',
]);

/** unknownFields decision 'rejected': a field CreatePaymentRequest does not define → 400 naming it. */
export function rejectUnknownFields(body: Body): void {
  const unknown = Object.keys(body).find((name) => !KNOWN_CREATE_FIELDS.has(name));
  if (unknown !== undefined) {
    throw new ApiError('invalid_request', { param: unknown, message: `Unknown field ${JSON.stringify(unknown.slice(0, 64))}.` });
  }
}

/** fieldPrecedence decision 'amount-last': the field rules run last to first, so the last broken one answers. */
function runFieldRulesInReverse(body: Body, faults: FaultSet, max: CreateRules['lengths']): void {
  checkIdField(body, 'order_id', faults);
  checkIdField(body, 'customer_id', faults);
  checkAllowedChannels(body, faults);
  checkAllowedMethods(body, faults);
  checkMetadata(body, faults);
  checkReturnUrl(body, faults);
  checkExternalId(body, faults, max.externalId);
  checkMerchantReference(body, faults, max.merchantReference);
  checkDescription(body, faults, max.description);
  checkAmount(body, faults);
  rejectContextItems(body, faults);
}

/** The code a wrong type of each optional field answers (README decision 10); null is a wrong type when rejected. */
const WRONG_TYPE_CODE: Readonly<Record<string, ErrorCode>> = {
  description: 'invalid_request', merchant_reference: 'invalid_request', external_id: 'invalid_external_id',
  return_url: 'invalid_return_url', metadata: 'invalid_metadata', allowed_methods: 'invalid_allowed_method',
  allowed_channels: 'invalid_allowed_channel', customer_id: 'invalid_request', order_id: 'invalid_request',
};

/** nullFields decision 'rejected': JSON null for an optional field is a wrong type, answered with the field's code. */
export function rejectNullFields(body: Body): void {
  const field = Object.keys(WRONG_TYPE_CODE).find((name) => body[name] === null);
  if (field !== undefined) throw new ApiError(WRONG_TYPE_CODE[field]!, { param: field, message: `${field} must not be null; leave it out instead.` });
}

// ---------------------------------------------------------------------------------------
// The body itself

/** `Content-Type: application/json` (parameters allowed), at most 1 MiB, UTF-8, a JSON object. */
export function parseJsonObjectBody(
  contentType: string | undefined,
  body: RequestBody,
  faults: FaultSet = NO_FAULTS,
  mediaType: 'json-required' | 'ignored' = 'json-required',
): Body {
  if (body.tooLarge) throw invalidRequest('The request body exceeds 1 MiB.');
  if (mediaType === 'json-required' && !isJsonMediaType(contentType)) throw invalidRequest('Content-Type must be application/json.');
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
    if (faults.has('malformed-json-read-as-empty-object')) {
      /* FAULT malformed-json-read-as-empty-object: the body parser swallows a syntax error and hands on an empty object, so validation then complains about the amount */
      return {};
    }
    throw invalidRequest('The request body is not valid JSON.');
  }
  if (typeof value === 'string' && faults.has('double-encoded-json-body-accepted')) {
    /* FAULT double-encoded-json-body-accepted: a body that is a JSON string is parsed a second time (tolerating clients that encode twice), so a string holding an object is taken as the request */
    try {
      value = JSON.parse(value);
    } catch {
      throw invalidRequest('The request body must be a JSON object.');
    }
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
export function rejectContextItems(body: Body, faults: FaultSet = NO_FAULTS): void {
  if (faults.has('context-items-ignored')) {
    /* FAULT context-items-ignored: context_items is treated like any unknown field and silently ignored */
    return;
  }
  if (Object.hasOwn(body, 'context_items')) {
    throw new ApiError('context_items_not_accepted', { param: 'context_items' });
  }
}

/**
 * amount: required; a JSON string matching ^[0-9]+(\.[0-9]{1,2})?$, at most 18 integer
 * digits, value above zero. Kept exactly as received.
 */
export function checkAmount(body: Body, faults: FaultSet = NO_FAULTS): { amount: string; amountCents: bigint } {
  let value = body['amount'];
  if (faults.has('amount-missing-crashes') && (value === undefined || value === null)) {
    /* FAULT amount-missing-crashes: the amount's length is read before its presence is checked; a missing amount throws a TypeError (500) */
    void (value as unknown as string).length;
  }
  if (typeof value === 'number' && faults.has('amount-number-accepted')) {
    /* FAULT amount-number-accepted: a JSON number amount is converted with String() instead of being refused */
    value = String(value);
  }
  if (typeof value !== 'string') {
    throw new ApiError('invalid_amount', {
      param: 'amount',
      message: value === undefined || value === null
        ? 'amount is required.'
        : 'amount must be a decimal string, never a JSON number.',
    });
  }
  let pattern = AMOUNT_PATTERN;
  if (faults.has('amount-three-decimals-accepted')) {
    /* FAULT amount-three-decimals-accepted: the amount pattern allows up to three decimals (the third is dropped when converting to cents) */
    pattern = /^[0-9]+(\.[0-9]{1,3})?$/;
  }
  if (faults.has('amount-two-decimals-rejected')) {
    /* FAULT amount-two-decimals-rejected: the amount pattern allows one decimal only, so "10.25" (two, the limit) is refused */
    pattern = /^[0-9]+(\.[0-9])?$/;
  }
  if (!pattern.test(value)) throw invalidAmount();
  const integerDigits = value.split('.')[0]?.length ?? 0;
  if (integerDigits > MAX_INTEGER_DIGITS) throw invalidAmount();
  if (faults.has('amount-column-too-narrow') && integerDigits > 12) {
    /* FAULT amount-column-too-narrow: amounts are stored in a DECIMAL(14,2) column, so more than 12 integer digits are refused as invalid_amount */
    throw invalidAmount();
  }
  const amountCents = toCents(value);
  if (amountCents <= 0n) {
    if (faults.has('amount-zero-accepted')) {
      /* FAULT amount-zero-accepted: the "above zero" check is missing, so "0" and "0.00" are accepted */
    } else {
      throw new ApiError('invalid_amount', { param: 'amount', message: 'amount must be above zero.' });
    }
  }
  if (faults.has('amount-through-float')) {
    /* FAULT amount-through-float: the amount goes through a JavaScript number and back (Number(x).toFixed(2)): beyond 2^53 it loses digits */
    return { amount: Number(value).toFixed(2), amountCents };
  }
  return { amount: value, amountCents };
}

/** description: a string of at most 1000 code points. */
export function checkDescription(body: Body, faults: FaultSet = NO_FAULTS, max: number = LIMITS.descriptionMax): string | null {
  const value = optionalString(body, 'description', faults);
  if (value !== null && codePoints(value) > max) {
    if (faults.has('description-too-long-answers-invalid-request')) {
      /* FAULT description-too-long-answers-invalid-request: an over-long description is refused with the generic invalid_request instead of description_too_long */
      throw new ApiError('invalid_request', { param: 'description', message: 'description is invalid.' });
    }
    throw new ApiError('description_too_long', {
      param: 'description',
      message: `description must be at most ${max} characters.`,
    });
  }
  return value;
}

/** merchant_reference: a string of at most 255 code points. */
export function checkMerchantReference(body: Body, faults: FaultSet = NO_FAULTS, max: number = LIMITS.merchantReferenceMax): string | null {
  const value = optionalString(body, 'merchant_reference', faults);
  if (value !== null && codePoints(value) > max && faults.has('merchant-reference-truncated')) {
    /* FAULT merchant-reference-truncated: an over-long merchant_reference is silently cut to 255 characters (a lenient VARCHAR(255) column) instead of refused */
    return [...value].slice(0, max).join('');
  }
  if (value !== null && codePoints(value) > max) {
    throw new ApiError('reference_too_long', {
      param: 'merchant_reference',
      message: `merchant_reference must be at most ${max} characters.`,
    });
  }
  return value;
}

const CONTROL_CHARACTER = /[\u0000-\u001F\u007F-\u009F]/;

/** external_id: a non-empty string, at most 255 code points, no control characters. */
export function checkExternalId(body: Body, faults: FaultSet = NO_FAULTS, max: number = LIMITS.externalIdMax): string | null {
  const value = body['external_id'];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalidExternalId('external_id must be a string.');
  if (value.length === 0) throw invalidExternalId('external_id must not be empty.');
  if (codePoints(value) > max && faults.has('external-id-too-long-crashes')) {
    /* FAULT external-id-too-long-crashes: the length is never checked; the unique index refuses the key and the database error surfaces as 500 */
    throw new Error('index row size exceeds the maximum for index "payments_external_id_key"');
  }
  if (codePoints(value) > max) {
    throw invalidExternalId(`external_id must be at most ${max} characters.`);
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
export function checkReturnUrl(body: Body, faults: FaultSet = NO_FAULTS): string | null {
  const value = body['return_url'];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalidReturnUrl('return_url must be a string.');
  const cleaned = browserView(value);
  const scheme = schemeOf(cleaned);
  if (scheme === null) throw invalidReturnUrl('return_url must be absolute.');
  let blockedCheckScheme: string | null = scheme;
  if (faults.has('forbidden-scheme-case-sensitive')) {
    /* FAULT forbidden-scheme-case-sensitive: the blocklist is compared with the scheme as written, so JavaScript: or FILE: slip through */
    blockedCheckScheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(cleaned)?.[1] ?? null;
  }
  if (faults.has('return-url-scheme-checked-before-cleaning')) {
    /* FAULT return-url-scheme-checked-before-cleaning: the blocklist looks at the raw value, before leading spaces/controls and tabs/newlines are removed as a browser does */
    blockedCheckScheme = schemeOf(value);
  }
  if (blockedCheckScheme !== null && BLOCKED_SCHEMES.has(blockedCheckScheme)) throw invalidReturnUrl(`The ${scheme}: scheme is not allowed.`);
  if (scheme === 'http') {
    if (faults.has('http-return-url-accepted')) {
      /* FAULT http-return-url-accepted: the https-only check is missing, so http:// return URLs pass like deep links */
    } else {
      throw invalidReturnUrl('return_url must use https, not http.');
    }
  }
  if (scheme !== 'https' && scheme !== 'http' && faults.has('deep-link-return-url-rejected')) {
    /* FAULT deep-link-return-url-rejected: only web URLs are accepted; native-app deep links are refused */
    throw invalidReturnUrl('return_url must be an https URL.');
  }
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
export function checkMetadata(body: Body, faults: FaultSet = NO_FAULTS): Record<string, string> {
  const value = body['metadata'];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidMetadata('metadata must be an object.');
  let entries = Object.entries(value as Record<string, unknown>);
  let maxKeys: number = LIMITS.metadataMaxKeys;
  let keyMax: number = LIMITS.metadataKeyMax;
  let valueMax: number = LIMITS.metadataValueMax;
  if (faults.has('metadata-21-keys-accepted')) {
    /* FAULT metadata-21-keys-accepted: the key count is checked with "> 21" (an off-by-one), so 21 keys pass */
    maxKeys += 1;
  }
  if (faults.has('metadata-key-length-off-by-one')) {
    /* FAULT metadata-key-length-off-by-one: keys are checked with "<= 65", so a 65-character key passes */
    keyMax += 1;
  }
  if (faults.has('metadata-value-length-off-by-one')) {
    /* FAULT metadata-value-length-off-by-one: values are checked with "<= 501", so a 501-character value passes */
    valueMax += 1;
  }
  if (faults.has('metadata-at-limit-rejected')) {
    /* FAULT metadata-at-limit-rejected: the limits are exclusive ("< 20 keys", "< 64", "< 500"), so metadata exactly at a limit is refused */
    maxKeys -= 1;
    keyMax -= 1;
    valueMax -= 1;
  }
  if (faults.has('metadata-20-keys-rejected')) {
    /* FAULT metadata-20-keys-rejected: the key count is checked with ">= 20", so exactly 20 keys are refused */
    maxKeys -= 1;
  }
  if (faults.has('metadata-64-char-key-rejected')) {
    /* FAULT metadata-64-char-key-rejected: keys are checked with "< 64", so a 64-character key is refused */
    keyMax -= 1;
  }
  if (faults.has('metadata-500-char-value-rejected')) {
    /* FAULT metadata-500-char-value-rejected: values are checked with "< 500", so a 500-character value is refused */
    valueMax -= 1;
  }
  if (entries.length > maxKeys) {
    throw invalidMetadata(`metadata may have at most ${LIMITS.metadataMaxKeys} keys.`);
  }
  if (faults.has('metadata-non-string-values-accepted')) {
    /* FAULT metadata-non-string-values-accepted: metadata values are converted with String() instead of refused when they are not strings */
    entries = entries.map(([k, v]): [string, unknown] => [k, typeof v === 'string' ? v : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)]);
  }
  for (const [key, item] of entries) {
    if (key.length === 0) throw invalidMetadata('metadata keys must not be empty.');
    if (codePoints(key) > keyMax) {
      throw invalidMetadata(`metadata keys must be at most ${LIMITS.metadataKeyMax} characters.`);
    }
    if (typeof item !== 'string') throw invalidMetadata('metadata values must be strings.');
    if (codePoints(item) > valueMax) {
      throw invalidMetadata(`metadata values must be at most ${LIMITS.metadataValueMax} characters.`);
    }
  }
  // Object.fromEntries defines own properties: a "__proto__" key stays a plain key.
  return Object.fromEntries(entries) as Record<string, string>;
}

/** allowed_methods: an array whose items are exactly BKASH or NAGAD. Echoed as given. */
export function checkAllowedMethods(body: Body, faults: FaultSet = NO_FAULTS): string[] | undefined {
  if (faults.has('lowercase-method-accepted') && Array.isArray(body['allowed_methods'])) {
    /* FAULT lowercase-method-accepted: methods are upper-cased before the check ("bkash" becomes BKASH) instead of refused */
    const upper = (body['allowed_methods'] as unknown[]).map((m) => (typeof m === 'string' ? m.toUpperCase() : m));
    return enumArray({ allowed_methods: upper }, 'allowed_methods', PAYMENT_METHODS, 'invalid_allowed_method');
  }
  if (faults.has('methods-trimmed') && Array.isArray(body['allowed_methods'])) {
    /* FAULT methods-trimmed: methods are trimmed before the check ("BKASH " becomes BKASH) instead of refused */
    const trimmed = (body['allowed_methods'] as unknown[]).map((m) => (typeof m === 'string' ? m.trim() : m));
    return enumArray({ allowed_methods: trimmed }, 'allowed_methods', PAYMENT_METHODS, 'invalid_allowed_method');
  }
  if (faults.has('nagad-not-accepted')) {
    /* FAULT nagad-not-accepted: the method list is out of date and knows BKASH only, so NAGAD is refused */
    return enumArray(body, 'allowed_methods', ['BKASH'], 'invalid_allowed_method');
  }
  return enumArray(body, 'allowed_methods', PAYMENT_METHODS, 'invalid_allowed_method');
}

/** allowed_channels: an array whose items are exactly one of the four channel values. Echoed as given. */
export function checkAllowedChannels(body: Body, faults: FaultSet = NO_FAULTS): string[] | undefined {
  if (faults.has('unknown-channel-accepted') && Array.isArray(body['allowed_channels'])) {
    /* FAULT unknown-channel-accepted: allowed_channels is only checked to be an array of strings, not against the four channel values */
    const list = body['allowed_channels'] as unknown[];
    if (list.every((c) => typeof c === 'string')) return [...(list as string[])];
  }
  if (faults.has('channels-case-folded') && Array.isArray(body['allowed_channels'])) {
    /* FAULT channels-case-folded: channels are trimmed and upper-cased before the check (" cash_in" becomes CASH_IN) instead of refused */
    const folded = (body['allowed_channels'] as unknown[]).map((c) => (typeof c === 'string' ? c.trim().toUpperCase() : c));
    return enumArray({ allowed_channels: folded }, 'allowed_channels', COLLECTION_CHANNELS, 'invalid_allowed_channel');
  }
  if (faults.has('bank-transfer-channel-rejected')) {
    /* FAULT bank-transfer-channel-rejected: the channel list predates BANK_TRANSFER, so that channel is refused */
    return enumArray(body, 'allowed_channels', COLLECTION_CHANNELS.filter((c) => c !== 'BANK_TRANSFER'), 'invalid_allowed_channel');
  }
  return enumArray(body, 'allowed_channels', COLLECTION_CHANNELS, 'invalid_allowed_channel');
}

/** customer_id / order_id: a string when given (whether it exists is checked later, in order-checks.ts). */
export function checkIdField(body: Body, field: 'customer_id' | 'order_id', faults: FaultSet = NO_FAULTS): string | null {
  return optionalString(body, field, faults);
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
function optionalString(body: Body, field: string, faults: FaultSet = NO_FAULTS): string | null {
  const value = body[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' && faults.has('string-fields-coerced') && (field === 'description' || field === 'merchant_reference')) {
    /* FAULT string-fields-coerced: description and merchant_reference of another JSON type are converted with String() instead of refused */
    return String(value);
  }
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
