/**
 * Planted faults of the create area (spec: CreatePaymentRequest, Metadata, Errors, Limits), each a
 * realistic bug in the one function of reference/validate-create.ts (or the commit step of
 * reference/create-payment.ts) implementing the rule, with the rule ids it must make fail.
 */
import type { FaultDefinition } from '../faults.ts';

export const CREATE_FAULTS = {
  // ── amount ──
  'amount-through-float': {
    description: 'The amount goes through a JavaScript number and back (Number(x).toFixed(2)): "12345678901234567.89" is stored and answered as "12345678901234568.00".',
    breaks: ['CREATE-AMOUNT-DECIMAL-EXACT', 'CREATE-FIELDS-ECHOED'],
  },
  'amount-column-too-narrow': {
    description: 'Amounts live in a DECIMAL(14,2) column: valid amounts of more than 12 integer digits are refused with invalid_amount.',
    breaks: ['CREATE-VALID-ACCEPTED', 'CREATE-AMOUNT-DECIMAL-EXACT', 'CREATE-FIELDS-ECHOED'],
  },
  'amount-three-decimals-accepted': {
    description: 'The amount pattern allows three decimals ("1.005" is accepted, the third decimal dropped).',
    breaks: ['CREATE-AMOUNT-INVALID'],
  },
  'amount-two-decimals-rejected': {
    description: 'The amount pattern allows one decimal only: "10.25", at the two-decimal limit, is refused with invalid_amount.',
    breaks: ['CREATE-VALID-ACCEPTED'],
  },
  'amount-zero-accepted': {
    description: 'The "above zero" check is missing: "0" and "0.00" create Payments.',
    breaks: ['CREATE-AMOUNT-INVALID'],
  },
  'amount-number-accepted': {
    description: 'A JSON number amount is converted with String() instead of refused.',
    breaks: ['CREATE-AMOUNT-NOT-STRING', 'CREATE-WRONG-TYPE'],
  },
  'amount-missing-crashes': {
    description: 'The amount\'s length is read before its presence is checked: a body without amount (or with a null one) throws a TypeError and answers 500.',
    breaks: ['CREATE-AMOUNT-MISSING', 'CREATE-AMOUNT-NOT-STRING', 'RESP-NO-5XX'],
  },
  // ── return_url ──
  'forbidden-scheme-case-sensitive': {
    description: 'The javascript:/data:/file:/intent: blocklist is compared with the scheme as written: "JavaScript://…" or "FILE:///…" passes as a deep link.',
    breaks: ['CREATE-RETURN-URL-FORBIDDEN-SCHEME'],
  },
  'return-url-scheme-checked-before-cleaning': {
    description: 'The blocklist looks at the raw return_url, before leading spaces/controls and embedded tabs/newlines are removed the way a browser does: " javascript://…" or "java\\tscript://…" passes.',
    breaks: ['CREATE-RETURN-URL-FORBIDDEN-SCHEME'],
  },
  'http-return-url-accepted': {
    description: 'The https-only check is missing: http:// return URLs are accepted like deep links.',
    breaks: ['CREATE-RETURN-URL-NOT-HTTPS'],
  },
  'deep-link-return-url-rejected': {
    description: 'Only web URLs are accepted: native-app deep links (myapp://done) are refused with invalid_return_url.',
    breaks: ['CREATE-RETURN-URL-VALID', 'CREATE-VALID-ACCEPTED', 'CREATE-FIELDS-ECHOED'],
  },
  // ── metadata ──
  'metadata-21-keys-accepted': {
    description: 'The key count is compared one off: metadata with 21 keys is accepted.',
    breaks: ['CREATE-METADATA-TOO-MANY-KEYS'],
  },
  'metadata-key-length-off-by-one': {
    description: 'Key lengths are compared one off: a 65-character metadata key is accepted.',
    breaks: ['CREATE-METADATA-KEY-TOO-LONG'],
  },
  'metadata-value-length-off-by-one': {
    description: 'Value lengths are compared one off: a 501-character metadata value is accepted.',
    breaks: ['CREATE-METADATA-VALUE-TOO-LONG'],
  },
  'metadata-at-limit-rejected': {
    description: 'The metadata limits are exclusive: exactly 20 keys, a 64-character key or a 500-character value is refused with invalid_metadata.',
    breaks: ['CREATE-METADATA-AT-LIMITS', 'CREATE-VALID-ACCEPTED', 'CREATE-FIELDS-ECHOED'],
  },
  'metadata-20-keys-rejected': {
    description: 'The key count is exclusive ("< 20"): metadata with exactly 20 keys is refused with invalid_metadata.',
    breaks: ['CREATE-METADATA-AT-LIMITS'],
  },
  'metadata-64-char-key-rejected': {
    description: 'Key lengths are exclusive ("< 64"): a 64-character metadata key is refused with invalid_metadata.',
    breaks: ['CREATE-METADATA-AT-LIMITS'],
  },
  'metadata-500-char-value-rejected': {
    description: 'Value lengths are exclusive ("< 500"): a 500-character metadata value is refused with invalid_metadata.',
    breaks: ['CREATE-METADATA-AT-LIMITS'],
  },
  'metadata-non-string-values-accepted': {
    description: 'Metadata values that are not strings (numbers, booleans, null, objects) are converted with String() instead of refused.',
    breaks: ['CREATE-METADATA-NOT-STRINGS'],
  },
  // ── allowed_methods / allowed_channels ──
  'lowercase-method-accepted': {
    description: 'allowed_methods are upper-cased before the check: "bkash" or "Nagad" is accepted instead of refused.',
    breaks: ['CREATE-ALLOWED-METHODS-INVALID'],
  },
  'methods-trimmed': {
    description: 'allowed_methods items are trimmed before the check: "BKASH " or "\tNAGAD" is accepted as a method.',
    breaks: ['CREATE-ALLOWED-METHODS-INVALID'],
  },
  'nagad-not-accepted': {
    description: 'The method list is out of date and knows BKASH only: allowed_methods naming NAGAD is refused.',
    breaks: ['CREATE-ALLOWED-METHODS-VALID', 'CREATE-VALID-ACCEPTED', 'CREATE-FIELDS-ECHOED'],
  },
  'unknown-channel-accepted': {
    description: 'allowed_channels is only checked to be an array of strings: unknown channels ("CASH_OUT", "send_money") are accepted.',
    breaks: ['CREATE-ALLOWED-CHANNELS-INVALID'],
  },
  'channels-case-folded': {
    description: 'allowed_channels items are trimmed and upper-cased before the check: "cash_in" or " PAYMENT" is accepted as a channel.',
    breaks: ['CREATE-ALLOWED-CHANNELS-INVALID'],
  },
  'bank-transfer-channel-rejected': {
    description: 'The channel list predates BANK_TRANSFER: allowed_channels naming it is refused with invalid_allowed_channel.',
    breaks: ['CREATE-ALLOWED-CHANNELS-VALID', 'CREATE-VALID-ACCEPTED', 'CREATE-FIELDS-ECHOED'],
  },
  // ── context_items ──
  'context-items-ignored': {
    description: 'context_items is treated like any unknown field and silently ignored: the Payment is created.',
    breaks: ['CREATE-CONTEXT-ITEMS-REJECTED'],
  },
  // ── lengths ──
  'description-too-long-answers-invalid-request': {
    description: 'An over-long description is refused with the generic invalid_request instead of description_too_long.',
    breaks: ['CREATE-DESCRIPTION-TOO-LONG-CODE'],
  },
  'merchant-reference-truncated': {
    description: 'An over-long merchant_reference is silently cut to 255 characters (a lenient VARCHAR(255)) instead of refused with reference_too_long.',
    breaks: ['CREATE-REFERENCE-TOO-LONG-CODE'],
  },
  'external-id-too-long-crashes': {
    description: 'The external_id length is never checked: the unique index refuses an over-long key and the database error answers 500.',
    breaks: ['CREATE-EXTERNAL-ID-TOO-LONG-CODE', 'RESP-NO-5XX'],
  },
  // ── echo, types, bodies ──
  'merchant-reference-dropped': {
    description: 'The insert forgets merchant_reference: it is accepted but stored and answered as null.',
    breaks: ['CREATE-FIELDS-ECHOED', 'CREATE-REFERENCE-TOO-LONG-CODE'],
  },
  'string-fields-coerced': {
    description: 'description and merchant_reference of another JSON type (number, boolean, array, object) are converted with String() instead of refused.',
    breaks: ['CREATE-WRONG-TYPE'],
  },
  'malformed-json-read-as-empty-object': {
    description: 'The body parser swallows a JSON syntax error and hands on {}: a malformed body answers invalid_amount ("amount is required") instead of invalid_request.',
    breaks: ['CREATE-MALFORMED-JSON'],
  },
  'double-encoded-json-body-accepted': {
    description: 'A body that is a JSON string is parsed a second time, so a valid request encoded twice creates a Payment instead of being refused as not an object.',
    breaks: ['CREATE-BODY-NOT-OBJECT'],
  },
  'validation-errors-aggregated': {
    description: 'When several fields are invalid the errors are merged into one generic invalid_request, a code that applies to none of them when each has its own.',
    breaks: ['CREATE-MULTI-VIOLATION'],
  },
} satisfies Record<string, FaultDefinition>;
