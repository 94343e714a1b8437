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
 * table of the step they break (references/service/steps.ts says how an override replaces a check).
 */
import { ApiError, type ErrorCode } from './errors.ts';
import { AMOUNT_PATTERN, MAX_INTEGER_DIGITS, toCents } from './decimal.ts';
import type { RequestBody } from './http-io.ts';
import { COLLECTION_CHANNELS, PAYMENT_METHODS } from './types.ts';
import { NO_FAULTS, type FaultSet } from './faults.ts';
import { checkOf, type PlantingStep, type Step } from './steps.ts';

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

/** The variant's choices that shape validation (references/service/decisions.ts). */
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
    'validation-errors-aggregated': {
      does: 'When several fields are invalid the errors are merged into one generic invalid_request, a code that applies to none of ' +
        'them when each has its own.',
      breaks: ['CREATE-MULTI-VIOLATION'],
      plant: (run, next) => {
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
    'malformed-json-read-as-empty-object': {
      does: 'The body parser swallows a JSON syntax error and hands on {}: a malformed body answers invalid_amount ("amount is ' +
        'required") instead of invalid_request.',
      breaks: ['CREATE-MALFORMED-JSON'],
      violates: ['errors.code.invalid_request'],
      plant: (text, next) => {
        try {
          return next(text);
        } catch {
          return {};
        }
      },
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
    'double-encoded-json-body-accepted': {
      does: 'A body that is a JSON string is parsed a second time, so a valid request encoded twice creates a Payment instead of ' +
        'being refused as not an object.',
      breaks: ['CREATE-BODY-NOT-OBJECT'],
      violates: ['errors.code.invalid_request'],
      plant: (value, next) => {
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
    'context-items-ignored': {
      does: 'context_items is treated like any unknown field and silently ignored: the Payment is created.',
      breaks: ['CREATE-CONTEXT-ITEMS-REJECTED'],
      violates: ['create.context-items-rejected'],
      plant: () => ({}),
    },
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
    'amount-missing-crashes': {
      does: 'The amount\'s length is read before its presence is checked: a body without amount (or with a null one) throws a ' +
        'TypeError and answers 500.',
      breaks: ['CREATE-AMOUNT-MISSING', 'CREATE-AMOUNT-NOT-STRING', 'RESP-NO-5XX'],
      violates: ['create.field.amount#required'],
      plant: (input, next) => {
        const value = input.body['amount'];
        if (value === undefined || value === null) void (value as unknown as string).length;
        return next(input);
      },
    },
    'amount-number-accepted': {
      does: 'A JSON number amount is converted with String() instead of refused.',
      breaks: ['CREATE-AMOUNT-NOT-STRING', 'CREATE-WRONG-TYPE'],
      violates: ['create.field.amount#not-number', 'overview.amounts-decimal-strings#requests-strings'],
      plant: (input, next) => next(typeof input.body['amount'] === 'number' ? withField(input, 'amount', String(input.body['amount'])) : input),
    },
    'amount-three-decimals-accepted': {
      does: 'The amount pattern allows three decimals ("1.005" is accepted, the third decimal dropped).',
      breaks: ['CREATE-AMOUNT-INVALID'],
      violates: ['create.field.amount#precision', 'limits.amount-precision'],
      plant: ({ body }) => checkAmount(body, { ...AMOUNT_RULE, pattern: /^[0-9]+(\.[0-9]{1,3})?$/ }),
    },
    'amount-two-decimals-rejected': {
      does: 'The amount pattern allows one decimal only: "10.25", at the two-decimal limit, is refused with invalid_amount.',
      breaks: ['CREATE-VALID-ACCEPTED'],
      violates: ['create.field.amount#valid-accepted'],
      plant: ({ body }) => checkAmount(body, { ...AMOUNT_RULE, pattern: /^[0-9]+(\.[0-9])?$/ }),
    },
    'amount-column-too-narrow': {
      does: 'Amounts live in a DECIMAL(14,2) column: valid amounts of more than 12 integer digits are refused with invalid_amount.',
      breaks: ['CREATE-VALID-ACCEPTED', 'CREATE-AMOUNT-DECIMAL-EXACT', 'CREATE-FIELDS-ECHOED'],
      violates: ['create.field.amount#valid-accepted'],
      plant: ({ body }) => checkAmount(body, { ...AMOUNT_RULE, maxIntegerDigits: 12 }),
    },
    'amount-zero-accepted': {
      does: 'The "above zero" check is missing: "0" and "0.00" create Payments.',
      breaks: ['CREATE-AMOUNT-INVALID'],
      violates: ['create.field.amount#positive'],
      plant: ({ body }) => checkAmount(body, { ...AMOUNT_RULE, aboveZero: false }),
    },
    'amount-through-float': {
      does: 'The amount goes through a JavaScript number and back (Number(x).toFixed(2)): "12345678901234567.89" is stored and ' +
        'answered as "12345678901234568.00".',
      breaks: ['CREATE-AMOUNT-DECIMAL-EXACT', 'CREATE-FIELDS-ECHOED'],
      violates: ['create.field.amount#exact'],
      plant: (input, next) => {
        const checked = next(input);
        return { ...checked, amount: Number(checked.amount).toFixed(2) };
      },
    },
  },
};

/* description and merchant_reference of another JSON type are converted with String() instead of refused */
const stringFieldsCoerced = (field: string) => (input: FieldInput, next: FieldCheck) => {
  const value = input.body[field];
  return next(value === undefined || value === null || typeof value === 'string' ? input : withField(input, field, String(value)));
};

/** `field` left out of the create schema's allow-list: a create carrying it is refused as an unknown field. */
const forgottenField = (field: string) => ({
  does: `${field} was left out of the create schema's allow-list: a create carrying a string ${field} is refused 400 invalid_request naming it, as an unknown field would be.`,
  breaks: ['CREATE-VALID-ACCEPTED'],
  violates: [`create.field.${field}#accepted`],
  plant: (input: FieldInput, next: FieldCheck) => {
    if (input.body[field] !== undefined) throw new ApiError('invalid_request', { param: field, message: `Unknown field ${JSON.stringify(field)}.` });
    return next(input);
  },
});

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
    'description-not-in-schema': forgottenField('description'),
    'string-fields-coerced': {
      does: 'description and merchant_reference of another JSON type (number, boolean, array, object) are converted with String() ' +
        'instead of refused.',
      breaks: ['CREATE-WRONG-TYPE'],
      plant: stringFieldsCoerced('description'),
    },
    'description-too-long-answers-invalid-request': {
      does: 'An over-long description is refused with the generic invalid_request instead of description_too_long.',
      breaks: ['CREATE-DESCRIPTION-TOO-LONG-CODE'],
      violates: ['errors.code.description_too_long'],
      plant: (input, next) => {
        try {
          return next(input);
        } catch (err) {
          if (err instanceof ApiError && err.code === 'description_too_long') throw new ApiError('invalid_request', { param: 'description', message: 'description is invalid.' });
          throw err;
        }
      },
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
    'merchant-reference-not-in-schema': forgottenField('merchant_reference'),
    'string-fields-coerced': stringFieldsCoerced('merchant_reference'),
    'merchant-reference-truncated': {
      does: 'An over-long merchant_reference is silently cut to 255 characters (a lenient VARCHAR(255)) instead of refused with ' +
        'reference_too_long.',
      breaks: ['CREATE-REFERENCE-TOO-LONG-CODE'],
      violates: ['errors.code.reference_too_long'],
      plant: (input, next) => {
        const value = input.body['merchant_reference'];
        const max = input.lengths.merchantReference;
        return typeof value === 'string' && codePoints(value) > max ? { merchantReference: [...value].slice(0, max).join('') } : next(input);
      },
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
    'external-id-too-long-crashes': {
      does: 'The external_id length is never checked: the unique index refuses an over-long key and the database error answers 500.',
      breaks: ['CREATE-EXTERNAL-ID-TOO-LONG-CODE', 'RESP-NO-5XX'],
      violates: ['errors.code.invalid_external_id'],
      plant: (input, next) => {
        const value = input.body['external_id'];
        if (typeof value === 'string' && codePoints(value) > input.lengths.externalId) {
          throw new Error('index row size exceeds the maximum for index "payments_external_id_key"');
        }
        return next(input);
      },
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
    'forbidden-scheme-case-sensitive': {
      does: 'The javascript:/data:/file:/intent: blocklist is compared with the scheme as written: "JavaScript://…" or "FILE:///…" ' +
        'passes as a deep link.',
      breaks: ['CREATE-RETURN-URL-FORBIDDEN-SCHEME'],
      violates: ['create.field.return_url#forbidden-schemes'],
      plant: ({ body }) => ({
        returnUrl: checkReturnUrl(body, { ...RETURN_URL_RULE, blocklistScheme: (_raw, cleaned) => /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(cleaned)?.[1] ?? null }),
      }),
    },
    'return-url-scheme-checked-before-cleaning': {
      does: 'The blocklist looks at the raw return_url, before leading spaces/controls and embedded tabs/newlines are removed the way ' +
        'a browser does: " javascript://…" or "java\\tscript://…" passes.',
      breaks: ['CREATE-RETURN-URL-FORBIDDEN-SCHEME'],
      violates: ['create.field.return_url#forbidden-schemes'],
      plant: ({ body }) => ({ returnUrl: checkReturnUrl(body, { ...RETURN_URL_RULE, blocklistScheme: (raw) => schemeOf(raw) }) }),
    },
    'http-return-url-accepted': {
      does: 'The https-only check is missing: http:// return URLs are accepted like deep links.',
      breaks: ['CREATE-RETURN-URL-NOT-HTTPS'],
      violates: ['create.field.return_url#not-https-rejected'],
      plant: ({ body }) => ({ returnUrl: checkReturnUrl(body, { ...RETURN_URL_RULE, httpAccepted: true }) }),
    },
    'return-url-with-query-rejected': {
      does: 'An https return_url with a query string or a fragment is refused with invalid_return_url (a "clean URL" check copied ' +
        'from the webhook endpoint form).',
      breaks: ['CREATE-FIELDS-ECHOED', 'CREATE-RETURN-URL-VALID'],
      violates: ['create.field.return_url#https-accepted'],
      plant: (input, next) => {
        const url = input.body.return_url;
        if (typeof url === 'string' && /^https:/i.test(url) && /[?#]/.test(url)) throw new ApiError('invalid_return_url', { param: 'return_url' });
        return next(input);
      },
    },
    'deep-link-return-url-rejected': {
      does: 'Only web URLs are accepted: native-app deep links (myapp://done) are refused with invalid_return_url.',
      breaks: ['CREATE-RETURN-URL-VALID', 'CREATE-VALID-ACCEPTED', 'CREATE-FIELDS-ECHOED'],
      violates: ['create.field.return_url#deep-link-accepted'],
      plant: ({ body }) => ({ returnUrl: checkReturnUrl(body, { ...RETURN_URL_RULE, deepLinksAccepted: false }) }),
    },
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
    'metadata-not-in-schema': forgottenField('metadata'),
    'metadata-empty-refused': {
      does: 'An empty metadata object is refused with invalid_metadata (the check, written for the dashboard form, wants at least ' +
        'one key); every body a tool tags for its own clean-up has one, so only the lower edge shows it.',
      breaks: ['CREATE-METADATA-AT-LIMITS'],
      violates: ['limits.metadata-keys'],
      plant: (input, next) => {
        const m = input.body['metadata'];
        const empty = m !== null && typeof m === 'object' && !Array.isArray(m) && Object.keys(m).length === 0;
        if (empty) throw invalidMetadata('metadata must have at least one key.');
        return next(input);
      },
    },
    'metadata-21-keys-accepted': {
      does: 'The key count is compared one off: metadata with 21 keys is accepted.',
      breaks: ['CREATE-METADATA-TOO-MANY-KEYS'],
      violates: ['limits.metadata-keys'],
      plant: metadataBoundsOff({ maxKeys: +1 }),
    },
    'metadata-key-length-off-by-one': {
      does: 'Key lengths are compared one off: a 65-character metadata key is accepted.',
      breaks: ['CREATE-METADATA-KEY-TOO-LONG'],
      violates: ['limits.metadata-key-length'],
      plant: metadataBoundsOff({ keyMax: +1 }),
    },
    'metadata-value-length-off-by-one': {
      does: 'Value lengths are compared one off: a 501-character metadata value is accepted.',
      breaks: ['CREATE-METADATA-VALUE-TOO-LONG'],
      violates: ['limits.metadata-value-length'],
      plant: metadataBoundsOff({ valueMax: +1 }),
    },
    'metadata-at-limit-rejected': {
      does: 'The metadata limits are exclusive: exactly 20 keys, a 64-character key or a 500-character value is refused with ' +
        'invalid_metadata.',
      breaks: ['CREATE-METADATA-AT-LIMITS', 'CREATE-VALID-ACCEPTED', 'CREATE-FIELDS-ECHOED'],
      plant: metadataBoundsOff({ maxKeys: -1, keyMax: -1, valueMax: -1 }),
    },
    'metadata-20-keys-rejected': {
      does: 'The key count is exclusive ("< 20"): metadata with exactly 20 keys is refused with invalid_metadata.',
      breaks: ['CREATE-METADATA-AT-LIMITS'],
      violates: ['limits.metadata-keys'],
      plant: metadataBoundsOff({ maxKeys: -1 }),
    },
    'metadata-64-char-key-rejected': {
      does: 'Key lengths are exclusive ("< 64"): a 64-character metadata key is refused with invalid_metadata.',
      breaks: ['CREATE-METADATA-AT-LIMITS'],
      violates: ['limits.metadata-key-length'],
      plant: metadataBoundsOff({ keyMax: -1 }),
    },
    'metadata-500-char-value-rejected': {
      does: 'Value lengths are exclusive ("< 500"): a 500-character metadata value is refused with invalid_metadata.',
      breaks: ['CREATE-METADATA-AT-LIMITS'],
      violates: ['limits.metadata-value-length'],
      plant: metadataBoundsOff({ valueMax: -1 }),
    },
    'metadata-length-counted-in-utf16-units': {
      does: 'Metadata lengths are counted in UTF-16 code units (string.length): a key of 64 emoji, 64 characters, is refused with ' +
        'invalid_metadata.',
      breaks: ['CREATE-METADATA-AT-LIMITS'],
      violates: ['limits.metadata-key-length'],
      plant: ({ body }) => ({ metadata: checkMetadata(body, { ...METADATA_BOUNDS, length: (text) => text.length }) }),
    },
    'metadata-length-counted-in-bytes': {
      does: 'Metadata lengths are counted in UTF-8 bytes: a key of 64 "é", 64 characters, is refused with invalid_metadata.',
      breaks: ['CREATE-METADATA-AT-LIMITS'],
      violates: ['limits.metadata-key-length'],
      plant: ({ body }) => ({ metadata: checkMetadata(body, { ...METADATA_BOUNDS, length: (text) => Buffer.byteLength(text, 'utf8') }) }),
    },
    'metadata-non-string-values-accepted': {
      does: 'Metadata values that are not strings (numbers, booleans, null, objects) are converted with String() instead of refused.',
      breaks: ['CREATE-METADATA-NOT-STRINGS'],
      violates: ['metadata.string-map#string-values'],
      plant: (input, next) => {
        const value = input.body['metadata'];
        if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) return next(input);
        const coerced = Object.entries(value).map(([k, v]): [string, unknown] => [k, typeof v === 'string' ? v : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)]);
        return next(withField(input, 'metadata', Object.fromEntries(coerced)));
      },
    },
  },
};

/** allowed_methods: an array whose items are exactly BKASH or NAGAD. Echoed as given. */
const ALLOWED_METHODS: FieldStep = {
  name: 'allowed_methods',
  check: ({ body }) => ({ allowedMethods: enumArray(body, 'allowed_methods', PAYMENT_METHODS, 'invalid_allowed_method') }),
  faulty: {
    'lowercase-method-accepted': {
      does: 'allowed_methods are upper-cased before the check: "bkash" or "Nagad" is accepted instead of refused.',
      breaks: ['CREATE-ALLOWED-METHODS-INVALID'],
      violates: ['create.field.allowed_methods#others-rejected'],
      plant: (input, next) => next(mapItems(input, 'allowed_methods', (m) => m.toUpperCase())),
    },
    'methods-trimmed': {
      does: 'allowed_methods items are trimmed before the check: "BKASH " or "	NAGAD" is accepted as a method.',
      breaks: ['CREATE-ALLOWED-METHODS-INVALID'],
      violates: ['create.field.allowed_methods#others-rejected'],
      plant: (input, next) => next(mapItems(input, 'allowed_methods', (m) => m.trim())),
    },
    'nagad-not-accepted': {
      does: 'The method list is out of date and knows BKASH only: allowed_methods naming NAGAD is refused.',
      breaks: ['CREATE-ALLOWED-METHODS-VALID', 'CREATE-VALID-ACCEPTED', 'CREATE-FIELDS-ECHOED'],
      violates: ['create.field.allowed_methods#valid-accepted'],
      plant: ({ body }) => ({ allowedMethods: enumArray(body, 'allowed_methods', ['BKASH'], 'invalid_allowed_method') }),
    },
  },
};

/** allowed_channels: an array whose items are exactly one of the four channel values. Echoed as given. */
const ALLOWED_CHANNELS: FieldStep = {
  name: 'allowed_channels',
  check: ({ body }) => ({ allowedChannels: enumArray(body, 'allowed_channels', COLLECTION_CHANNELS, 'invalid_allowed_channel') }),
  faulty: {
    'unknown-channel-accepted': {
      does: 'allowed_channels is only checked to be an array of strings: unknown channels ("CASH_OUT", "send_money") are accepted.',
      breaks: ['CREATE-ALLOWED-CHANNELS-INVALID'],
      violates: ['create.field.allowed_channels#others-rejected'],
      plant: (input, next) => {
        const list = input.body['allowed_channels'];
        return Array.isArray(list) && list.every((c) => typeof c === 'string') ? { allowedChannels: [...(list as string[])] } : next(input);
      },
    },
    'channels-case-folded': {
      does: 'allowed_channels items are trimmed and upper-cased before the check: "cash_in" or " PAYMENT" is accepted as a channel.',
      breaks: ['CREATE-ALLOWED-CHANNELS-INVALID'],
      violates: ['create.field.allowed_channels#others-rejected'],
      plant: (input, next) => next(mapItems(input, 'allowed_channels', (c) => c.trim().toUpperCase())),
    },
    'bank-transfer-channel-rejected': {
      does: 'The channel list predates BANK_TRANSFER: allowed_channels naming it is refused with invalid_allowed_channel.',
      breaks: ['CREATE-ALLOWED-CHANNELS-VALID', 'CREATE-VALID-ACCEPTED', 'CREATE-FIELDS-ECHOED'],
      violates: ['create.field.allowed_channels#valid-accepted', 'enums.collection-channel'],
      plant: ({ body }) => ({
        allowedChannels: enumArray(body, 'allowed_channels', COLLECTION_CHANNELS.filter((c) => c !== 'BANK_TRANSFER'), 'invalid_allowed_channel'),
      }),
    },
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

/** The steps of this file that plant faults (references/service/fault-registry.ts reads their declarations). */
export const FAULTY_STEPS: readonly PlantingStep[] = [RUN_FIELD_STEPS, JSON_TEXT, JSON_OBJECT, CONTEXT_ITEMS, AMOUNT, DESCRIPTION, MERCHANT_REFERENCE, EXTERNAL_ID, RETURN_URL, METADATA, ALLOWED_METHODS, ALLOWED_CHANNELS];
