/**
 * Validation of the createPayment body (spec, "CreatePaymentRequest (JSON body)",
 * "Errors", "Limits"). Create validation is a table of named steps (CREATE_STEPS), one small
 * check per field rule, run in order: each returns its part of the input or throws the
 * ApiError of the rule it checks, and the first failing step answers.
 *
 * A field that is absent or JSON `null` counts as not given (except `amount`, which is
 * required). Unknown fields are ignored.
 *
 * The planted faults of this file are overrides named after the defect, in the `faulty`
 * table of the step they break (reference/steps.ts says how an override replaces a check).
 */
import { ApiError, type ErrorCode } from './errors.ts';
import { AMOUNT_PATTERN, MAX_INTEGER_DIGITS, toCents } from './decimal.ts';
import type { RequestBody } from './http-io.ts';
import { COLLECTION_CHANNELS, PAYMENT_METHODS } from './types.ts';
import { NO_FAULTS, type FaultSet } from './faults.ts';
import { checkOf, type Step } from './steps.ts';

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

/** The variant's choices that shape validation (reference/decisions.ts). */
export interface CreateRules {
  precedence: 'amount-first' | 'amount-last';
  lengths: { description: number; merchantReference: number; externalId: number };
}

export const DEFAULT_CREATE_RULES: CreateRules = {
  precedence: 'amount-first',
  lengths: { description: LIMITS.descriptionMax, merchantReference: LIMITS.merchantReferenceMax, externalId: LIMITS.externalIdMax },
};

/** What a field step reads: the body and the variant's length limits. */
interface FieldInput {
  readonly body: Body;
  readonly lengths: CreateRules['lengths'];
}

/** One field rule: its part of the input, or the rule's ApiError. */
type FieldStep = Step<FieldInput, Partial<CreatePaymentInput>>;
type FieldCheck = (input: FieldInput) => Partial<CreatePaymentInput>;

export function validateCreateRequest(body: Body, faults: FaultSet = NO_FAULTS, rules: CreateRules = DEFAULT_CREATE_RULES): CreatePaymentInput {
  const checks = CREATE_STEPS.map((step) => checkOf(step, faults));
  return checkOf(RUN_FIELD_STEPS, faults)({ body, lengths: rules.lengths, precedence: rules.precedence, checks });
}

interface FieldRun extends FieldInput {
  readonly precedence: CreateRules['precedence'];
  /** The checks of CREATE_STEPS, in order, with the planted faults switched on. */
  readonly checks: readonly FieldCheck[];
}

/** Running the table: in order, the first failing step answers. */
const RUN_FIELD_STEPS: Step<FieldRun, CreatePaymentInput> = {
  name: 'the field steps in order',
  check: (run) => {
    const input: FieldInput = { body: run.body, lengths: run.lengths };
    // fieldPrecedence decision 'amount-last': the steps run last to first, so the last broken one answers.
    if (run.precedence === 'amount-last') for (const check of [...run.checks].reverse()) check(input);
    // Each step fills its own fields; together they fill every field of CreatePaymentInput.
    return Object.assign({}, ...run.checks.map((check) => check(input))) as CreatePaymentInput;
  },
  faulty: {
    /* every step runs and, when more than one fails, the errors are merged into one generic 400 invalid_request */
    'validation-errors-aggregated': (run, next) => {
      const input: FieldInput = { body: run.body, lengths: run.lengths };
      const failed: ApiError[] = [];
      for (const check of run.checks) {
        try {
          check(input);
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          failed.push(err);
        }
      }
      if (failed.length > 1) throw invalidRequest(`${failed.length} fields are invalid: ${failed.map((e) => e.param ?? e.code).join(', ')}.`);
      return next(run);
    },
  },
};
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
  return checkOf(JSON_OBJECT, faults)(checkOf(JSON_TEXT, faults)(text));
}

const JSON_TEXT: Step<string, unknown> = {
  name: 'the body is JSON',
  check: (text) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw invalidRequest('The request body is not valid JSON.');
    }
  },
  faulty: {
    /* the body parser swallows a syntax error and hands on an empty object, so validation then complains about the amount */
    'malformed-json-read-as-empty-object': (text, next) => {
      try {
        return next(text);
      } catch {
        return {};
      }
    },
  },
};

const JSON_OBJECT: Step<unknown, Body> = {
  name: 'the body is a JSON object',
  check: (value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalidRequest('The request body must be a JSON object.');
    return value as Body;
  },
  faulty: {
    /* a body that is a JSON string is parsed a second time (tolerating clients that encode twice), so a string holding an object is taken as the request */
    'double-encoded-json-body-accepted': (value, next) => {
      if (typeof value !== 'string') return next(value);
      let inner: unknown;
      try {
        inner = JSON.parse(value);
      } catch {
        throw invalidRequest('The request body must be a JSON object.');
      }
      return next(inner);
    },
  },
};

export function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase();
  return mediaType === 'application/json';
}
// ---------------------------------------------------------------------------------------
// The steps, in order. Each step's planted faults sit in its `faulty` table.

/** "`context_items` are not accepted and cause a 400 `context_items_not_accepted`" (any shape, even null). */
const CONTEXT_ITEMS: FieldStep = {
  name: 'context_items',
  check: ({ body }) => {
    if (Object.hasOwn(body, 'context_items')) throw new ApiError('context_items_not_accepted', { param: 'context_items' });
    return {};
  },
  faulty: {
    /* context_items is treated like any unknown field and silently ignored */
    'context-items-ignored': () => ({}),
  },
};

/** amount: what makes a valid one (the faults below write it wrongly). */
interface AmountRule {
  readonly pattern: RegExp;
  readonly maxIntegerDigits: number;
  readonly aboveZero: boolean;
}

const AMOUNT_RULE: AmountRule = { pattern: AMOUNT_PATTERN, maxIntegerDigits: MAX_INTEGER_DIGITS, aboveZero: true };

/**
 * amount: required; a JSON string matching ^[0-9]+(\.[0-9]{1,2})?$, at most 18 integer
 * digits, value above zero. Kept exactly as received.
 */
function checkAmount(body: Body, rule: AmountRule = AMOUNT_RULE): Pick<CreatePaymentInput, 'amount' | 'amountCents'> {
  const value = body['amount'];
  if (typeof value !== 'string') {
    throw new ApiError('invalid_amount', {
      param: 'amount',
      message: value === undefined || value === null
        ? 'amount is required.'
        : 'amount must be a decimal string, never a JSON number.',
    });
  }
  if (!rule.pattern.test(value)) throw invalidAmount();
  const integerDigits = value.split('.')[0]?.length ?? 0;
  if (integerDigits > rule.maxIntegerDigits) throw invalidAmount();
  const amountCents = toCents(value);
  if (amountCents <= 0n && rule.aboveZero) throw new ApiError('invalid_amount', { param: 'amount', message: 'amount must be above zero.' });
  return { amount: value, amountCents };
}

const AMOUNT: FieldStep = {
  name: 'amount',
  check: ({ body }) => checkAmount(body),
  faulty: {
    /* the amount's length is read before its presence is checked; a missing amount throws a TypeError (500) */
    'amount-missing-crashes': (input, next) => {
      const value = input.body['amount'];
      if (value === undefined || value === null) void (value as unknown as string).length;
      return next(input);
    },
    /* a JSON number amount is converted with String() instead of being refused */
    'amount-number-accepted': (input, next) => next(typeof input.body['amount'] === 'number' ? withField(input, 'amount', String(input.body['amount'])) : input),
    /* the amount pattern allows up to three decimals (the third is dropped when converting to cents) */
    'amount-three-decimals-accepted': ({ body }) => checkAmount(body, { ...AMOUNT_RULE, pattern: /^[0-9]+(\.[0-9]{1,3})?$/ }),
    /* the amount pattern allows one decimal only, so "10.25" (two, the limit) is refused */
    'amount-two-decimals-rejected': ({ body }) => checkAmount(body, { ...AMOUNT_RULE, pattern: /^[0-9]+(\.[0-9])?$/ }),
    /* amounts are stored in a DECIMAL(14,2) column, so more than 12 integer digits are refused as invalid_amount */
    'amount-column-too-narrow': ({ body }) => checkAmount(body, { ...AMOUNT_RULE, maxIntegerDigits: 12 }),
    /* the "above zero" check is missing, so "0" and "0.00" are accepted */
    'amount-zero-accepted': ({ body }) => checkAmount(body, { ...AMOUNT_RULE, aboveZero: false }),
    /* the amount goes through a JavaScript number and back (Number(x).toFixed(2)): beyond 2^53 it loses digits */
    'amount-through-float': (input, next) => {
      const checked = next(input);
      return { ...checked, amount: Number(checked.amount).toFixed(2) };
    },
  },
};

/* description and merchant_reference of another JSON type are converted with String() instead of refused */
const stringFieldsCoerced = (field: string) => (input: FieldInput, next: FieldCheck) => {
  const value = input.body[field];
  return next(value === undefined || value === null || typeof value === 'string' ? input : withField(input, field, String(value)));
};

/** description: a string of at most 1000 code points. */
const DESCRIPTION: FieldStep = {
  name: 'description',
  check: ({ body, lengths }) => {
    const value = optionalString(body, 'description');
    if (value !== null && codePoints(value) > lengths.description) {
      throw new ApiError('description_too_long', { param: 'description', message: `description must be at most ${lengths.description} characters.` });
    }
    return { description: value };
  },
  faulty: {
    'string-fields-coerced': stringFieldsCoerced('description'),
    /* an over-long description is refused with the generic invalid_request instead of description_too_long */
    'description-too-long-answers-invalid-request': (input, next) => {
      try {
        return next(input);
      } catch (err) {
        if (err instanceof ApiError && err.code === 'description_too_long') throw new ApiError('invalid_request', { param: 'description', message: 'description is invalid.' });
        throw err;
      }
    },
  },
};

/** merchant_reference: a string of at most 255 code points. */
const MERCHANT_REFERENCE: FieldStep = {
  name: 'merchant_reference',
  check: ({ body, lengths }) => {
    const value = optionalString(body, 'merchant_reference');
    if (value !== null && codePoints(value) > lengths.merchantReference) {
      throw new ApiError('reference_too_long', { param: 'merchant_reference', message: `merchant_reference must be at most ${lengths.merchantReference} characters.` });
    }
    return { merchantReference: value };
  },
  faulty: {
    'string-fields-coerced': stringFieldsCoerced('merchant_reference'),
    /* an over-long merchant_reference is silently cut (a lenient VARCHAR(255) column) instead of refused */
    'merchant-reference-truncated': (input, next) => {
      const value = input.body['merchant_reference'];
      const max = input.lengths.merchantReference;
      return typeof value === 'string' && codePoints(value) > max ? { merchantReference: [...value].slice(0, max).join('') } : next(input);
    },
  },
};

const CONTROL_CHARACTER = /[\u0000-\u001F\u007F-\u009F]/;

/** external_id: a non-empty string, at most 255 code points, no control characters. */
const EXTERNAL_ID: FieldStep = {
  name: 'external_id',
  check: ({ body, lengths }) => {
    const value = body['external_id'];
    if (value === undefined || value === null) return { externalId: null };
    if (typeof value !== 'string') throw invalidExternalId('external_id must be a string.');
    if (value.length === 0) throw invalidExternalId('external_id must not be empty.');
    if (codePoints(value) > lengths.externalId) throw invalidExternalId(`external_id must be at most ${lengths.externalId} characters.`);
    if (CONTROL_CHARACTER.test(value)) throw invalidExternalId('external_id must not contain control characters.');
    return { externalId: value };
  },
  faulty: {
    /* the length is never checked; the unique index refuses the key and the database error surfaces as 500 */
    'external-id-too-long-crashes': (input, next) => {
      const value = input.body['external_id'];
      if (typeof value === 'string' && codePoints(value) > input.lengths.externalId) {
        throw new Error('index row size exceeds the maximum for index "payments_external_id_key"');
      }
      return next(input);
    },
  },
};

/** Schemes rejected whatever follows them (spec names the first four; vbscript: is of the same family). */
export const BLOCKED_SCHEMES: ReadonlySet<string> = new Set(['javascript', 'data', 'file', 'intent', 'vbscript']);

/** return_url: how the check reads the URL (the faults below read it wrongly). */
interface ReturnUrlRule {
  /** The scheme the blocklist is compared with, from the value as received and as a browser reads it. */
  readonly blocklistScheme: (raw: string, cleaned: string) => string | null;
  readonly httpAccepted: boolean;
  readonly deepLinksAccepted: boolean;
}

const RETURN_URL_RULE: ReturnUrlRule = { blocklistScheme: (_raw, cleaned) => schemeOf(cleaned), httpAccepted: false, deepLinksAccepted: true };

/**
 * return_url: an absolute https URL, or a native deep link `<scheme>://...`.
 * The scheme is judged the way a browser would read the URL (WHATWG URL parsing):
 * leading/trailing C0 controls and spaces stripped, tab/CR/LF removed anywhere, the
 * scheme compared case-insensitively. http:, relative references and the blocked
 * schemes are rejected. The value is stored as received.
 */
function checkReturnUrl(body: Body, rule: ReturnUrlRule = RETURN_URL_RULE): string | null {
  const value = body['return_url'];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalidReturnUrl('return_url must be a string.');
  const cleaned = browserView(value);
  const scheme = schemeOf(cleaned);
  if (scheme === null) throw invalidReturnUrl('return_url must be absolute.');
  const blocklistScheme = rule.blocklistScheme(value, cleaned);
  if (blocklistScheme !== null && BLOCKED_SCHEMES.has(blocklistScheme)) throw invalidReturnUrl(`The ${scheme}: scheme is not allowed.`);
  if (scheme === 'http' && !rule.httpAccepted) throw invalidReturnUrl('return_url must use https, not http.');
  if (scheme !== 'https' && scheme !== 'http' && !rule.deepLinksAccepted) throw invalidReturnUrl('return_url must be an https URL.');
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

const RETURN_URL: FieldStep = {
  name: 'return_url',
  check: ({ body }) => ({ returnUrl: checkReturnUrl(body) }),
  faulty: {
    /* the blocklist is compared with the scheme as written, so JavaScript: or FILE: slip through */
    'forbidden-scheme-case-sensitive': ({ body }) => ({
      returnUrl: checkReturnUrl(body, { ...RETURN_URL_RULE, blocklistScheme: (_raw, cleaned) => /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(cleaned)?.[1] ?? null }),
    }),
    /* the blocklist looks at the raw value, before leading spaces/controls and tabs/newlines are removed as a browser does */
    'return-url-scheme-checked-before-cleaning': ({ body }) => ({ returnUrl: checkReturnUrl(body, { ...RETURN_URL_RULE, blocklistScheme: (raw) => schemeOf(raw) }) }),
    /* the https-only check is missing, so http:// return URLs pass like deep links */
    'http-return-url-accepted': ({ body }) => ({ returnUrl: checkReturnUrl(body, { ...RETURN_URL_RULE, httpAccepted: true }) }),
    /* only web URLs are accepted; native-app deep links are refused */
    'deep-link-return-url-rejected': ({ body }) => ({ returnUrl: checkReturnUrl(body, { ...RETURN_URL_RULE, deepLinksAccepted: false }) }),
  },
};

/** WHATWG URL parser, basic URL parser, first steps: strip C0 control or space, remove ASCII tab or newline. */
export function browserView(input: string): string {
  return input.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
}

/** The lower-cased scheme (RFC 3986 3.1: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"), or null. */
export function schemeOf(url: string): string | null {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url);
  return m?.[1]?.toLowerCase() ?? null;
}

/** metadata: the bounds a valid one stays within (the faults below count them wrongly). */
interface MetadataBounds {
  readonly maxKeys: number;
  readonly keyMax: number;
  readonly valueMax: number;
  /** How a length is counted: characters (code points), or a fault's encoding units. */
  readonly length?: (text: string) => number;
}

const METADATA_BOUNDS: MetadataBounds = { maxKeys: LIMITS.metadataMaxKeys, keyMax: LIMITS.metadataKeyMax, valueMax: LIMITS.metadataValueMax };

/** metadata: an object of at most 20 entries; keys 1..64 code points; values strings of at most 500. */
function checkMetadata(body: Body, bounds: MetadataBounds = METADATA_BOUNDS): Record<string, string> {
  const value = body['metadata'];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidMetadata('metadata must be an object.');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > bounds.maxKeys) throw invalidMetadata(`metadata may have at most ${LIMITS.metadataMaxKeys} keys.`);
  for (const [key, item] of entries) {
    if (key.length === 0) throw invalidMetadata('metadata keys must not be empty.');
    const length = bounds.length ?? codePoints;
    if (length(key) > bounds.keyMax) throw invalidMetadata(`metadata keys must be at most ${LIMITS.metadataKeyMax} characters.`);
    if (typeof item !== 'string') throw invalidMetadata('metadata values must be strings.');
    if (length(item) > bounds.valueMax) throw invalidMetadata(`metadata values must be at most ${LIMITS.metadataValueMax} characters.`);
  }
  // Object.fromEntries defines own properties: a "__proto__" key stays a plain key.
  return Object.fromEntries(entries) as Record<string, string>;
}

/** The metadata step with its bounds shifted by `shift` (an off-by-one fault). */
const metadataBoundsOff = (shift: Partial<MetadataBounds>) => ({ body }: FieldInput) => ({
  metadata: checkMetadata(body, {
    maxKeys: METADATA_BOUNDS.maxKeys + (shift.maxKeys ?? 0),
    keyMax: METADATA_BOUNDS.keyMax + (shift.keyMax ?? 0),
    valueMax: METADATA_BOUNDS.valueMax + (shift.valueMax ?? 0),
  }),
});

const METADATA: FieldStep = {
  name: 'metadata',
  check: ({ body }) => ({ metadata: checkMetadata(body) }),
  faulty: {
    /* the key count is checked with "> 21" (an off-by-one), so 21 keys pass */
    'metadata-21-keys-accepted': metadataBoundsOff({ maxKeys: +1 }),
    /* keys are checked with "<= 65", so a 65-character key passes */
    'metadata-key-length-off-by-one': metadataBoundsOff({ keyMax: +1 }),
    /* values are checked with "<= 501", so a 501-character value passes */
    'metadata-value-length-off-by-one': metadataBoundsOff({ valueMax: +1 }),
    /* the limits are exclusive ("< 20 keys", "< 64", "< 500"), so metadata exactly at a limit is refused */
    'metadata-at-limit-rejected': metadataBoundsOff({ maxKeys: -1, keyMax: -1, valueMax: -1 }),
    /* the key count is checked with ">= 20", so exactly 20 keys are refused */
    'metadata-20-keys-rejected': metadataBoundsOff({ maxKeys: -1 }),
    /* keys are checked with "< 64", so a 64-character key is refused */
    'metadata-64-char-key-rejected': metadataBoundsOff({ keyMax: -1 }),
    /* values are checked with "< 500", so a 500-character value is refused */
    'metadata-500-char-value-rejected': metadataBoundsOff({ valueMax: -1 }),
    /* lengths are JavaScript string lengths (UTF-16 code units): a key of 64 emoji counts 128 and is refused */
    'metadata-length-counted-in-utf16-units': ({ body }) => ({ metadata: checkMetadata(body, { ...METADATA_BOUNDS, length: (text) => text.length }) }),
    /* lengths are UTF-8 bytes (a varchar(64) byte column): a key of 64 "é" counts 128 and is refused */
    'metadata-length-counted-in-bytes': ({ body }) => ({ metadata: checkMetadata(body, { ...METADATA_BOUNDS, length: (text) => Buffer.byteLength(text, 'utf8') }) }),
    /* metadata values are converted with String() instead of refused when they are not strings */
    'metadata-non-string-values-accepted': (input, next) => {
      const value = input.body['metadata'];
      if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) return next(input);
      const coerced = Object.entries(value).map(([k, v]): [string, unknown] => [k, typeof v === 'string' ? v : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)]);
      return next(withField(input, 'metadata', Object.fromEntries(coerced)));
    },
  },
};

/** allowed_methods: an array whose items are exactly BKASH or NAGAD. Echoed as given. */
const ALLOWED_METHODS: FieldStep = {
  name: 'allowed_methods',
  check: ({ body }) => ({ allowedMethods: enumArray(body, 'allowed_methods', PAYMENT_METHODS, 'invalid_allowed_method') }),
  faulty: {
    /* methods are upper-cased before the check ("bkash" becomes BKASH) instead of refused */
    'lowercase-method-accepted': (input, next) => next(mapItems(input, 'allowed_methods', (m) => m.toUpperCase())),
    /* methods are trimmed before the check ("BKASH " becomes BKASH) instead of refused */
    'methods-trimmed': (input, next) => next(mapItems(input, 'allowed_methods', (m) => m.trim())),
    /* the method list is out of date and knows BKASH only, so NAGAD is refused */
    'nagad-not-accepted': ({ body }) => ({ allowedMethods: enumArray(body, 'allowed_methods', ['BKASH'], 'invalid_allowed_method') }),
  },
};

/** allowed_channels: an array whose items are exactly one of the four channel values. Echoed as given. */
const ALLOWED_CHANNELS: FieldStep = {
  name: 'allowed_channels',
  check: ({ body }) => ({ allowedChannels: enumArray(body, 'allowed_channels', COLLECTION_CHANNELS, 'invalid_allowed_channel') }),
  faulty: {
    /* allowed_channels is only checked to be an array of strings, not against the four channel values */
    'unknown-channel-accepted': (input, next) => {
      const list = input.body['allowed_channels'];
      return Array.isArray(list) && list.every((c) => typeof c === 'string') ? { allowedChannels: [...(list as string[])] } : next(input);
    },
    /* channels are trimmed and upper-cased before the check (" cash_in" becomes CASH_IN) instead of refused */
    'channels-case-folded': (input, next) => next(mapItems(input, 'allowed_channels', (c) => c.trim().toUpperCase())),
    /* the channel list predates BANK_TRANSFER, so that channel is refused */
    'bank-transfer-channel-rejected': ({ body }) => ({
      allowedChannels: enumArray(body, 'allowed_channels', COLLECTION_CHANNELS.filter((c) => c !== 'BANK_TRANSFER'), 'invalid_allowed_channel'),
    }),
  },
};

/** customer_id / order_id: a string when given (whether it exists is checked later, in order-checks.ts). */
const CUSTOMER_ID: FieldStep = { name: 'customer_id', check: ({ body }) => ({ customerId: optionalString(body, 'customer_id') }) };
const ORDER_ID: FieldStep = { name: 'order_id', check: ({ body }) => ({ orderId: optionalString(body, 'order_id') }) };

/** The create validation, in order: the first failing step answers (README: which error wins). */
export const CREATE_STEPS: readonly FieldStep[] = [
  CONTEXT_ITEMS, AMOUNT, DESCRIPTION, MERCHANT_REFERENCE, EXTERNAL_ID, RETURN_URL,
  METADATA, ALLOWED_METHODS, ALLOWED_CHANNELS, CUSTOMER_ID, ORDER_ID,
];

// ---------------------------------------------------------------------------------------
// Helpers

/** The same input with one body field replaced (what a fault's sloppy pre-processing hands on). */
function withField(input: FieldInput, field: string, value: unknown): FieldInput {
  return { ...input, body: { ...input.body, [field]: value } };
}

/** The same input with the string items of an array field mapped (other items and shapes untouched). */
function mapItems(input: FieldInput, field: string, map: (item: string) => string): FieldInput {
  const list = input.body[field];
  if (!Array.isArray(list)) return input;
  return withField(input, field, list.map((item: unknown) => (typeof item === 'string' ? map(item) : item)));
}

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
