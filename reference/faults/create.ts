/**
 * Planted faults of the create area (spec: CreatePaymentRequest, Metadata, Errors, Limits), each a
 * realistic bug in the one function of reference/validate-create.ts (or the commit step of
 * reference/create-payment.ts) implementing the rule.
 */

export const CREATE_FAULTS = {
  // ── amount ──
  'amount-through-float':
    'The amount goes through a JavaScript number and back (Number(x).toFixed(2)): "12345678901234567.89" is stored and answered as "12345678901234568.00".',
  'amount-column-too-narrow':
    'Amounts live in a DECIMAL(14,2) column: valid amounts of more than 12 integer digits are refused with invalid_amount.',
  'amount-three-decimals-accepted':
    'The amount pattern allows three decimals ("1.005" is accepted, the third decimal dropped).',
  'amount-two-decimals-rejected':
    'The amount pattern allows one decimal only: "10.25", at the two-decimal limit, is refused with invalid_amount.',
  'amount-zero-accepted':
    'The "above zero" check is missing: "0" and "0.00" create Payments.',
  'amount-number-accepted':
    'A JSON number amount is converted with String() instead of refused.',
  'amount-missing-crashes':
    'The amount\'s length is read before its presence is checked: a body without amount (or with a null one) throws a TypeError and answers 500.',
  // ── return_url ──
  'forbidden-scheme-case-sensitive':
    'The javascript:/data:/file:/intent: blocklist is compared with the scheme as written: "JavaScript://…" or "FILE:///…" passes as a deep link.',
  'return-url-scheme-checked-before-cleaning':
    'The blocklist looks at the raw return_url, before leading spaces/controls and embedded tabs/newlines are removed the way a browser does: " javascript://…" or "java\\tscript://…" passes.',
  'http-return-url-accepted':
    'The https-only check is missing: http:// return URLs are accepted like deep links.',
  'deep-link-return-url-rejected':
    'Only web URLs are accepted: native-app deep links (myapp://done) are refused with invalid_return_url.',
  // ── metadata ──
  'metadata-21-keys-accepted':
    'The key count is compared one off: metadata with 21 keys is accepted.',
  'metadata-key-length-off-by-one':
    'Key lengths are compared one off: a 65-character metadata key is accepted.',
  'metadata-value-length-off-by-one':
    'Value lengths are compared one off: a 501-character metadata value is accepted.',
  'metadata-at-limit-rejected':
    'The metadata limits are exclusive: exactly 20 keys, a 64-character key or a 500-character value is refused with invalid_metadata.',
  'metadata-20-keys-rejected':
    'The key count is exclusive ("< 20"): metadata with exactly 20 keys is refused with invalid_metadata.',
  'metadata-length-counted-in-utf16-units':
    'Metadata lengths are counted in UTF-16 code units (string.length): a key of 64 emoji, 64 characters, is refused with invalid_metadata.',
  'metadata-length-counted-in-bytes':
    'Metadata lengths are counted in UTF-8 bytes: a key of 64 "é", 64 characters, is refused with invalid_metadata.',
  'metadata-64-char-key-rejected':
    'Key lengths are exclusive ("< 64"): a 64-character metadata key is refused with invalid_metadata.',
  'metadata-500-char-value-rejected':
    'Value lengths are exclusive ("< 500"): a 500-character metadata value is refused with invalid_metadata.',
  'metadata-non-string-values-accepted':
    'Metadata values that are not strings (numbers, booleans, null, objects) are converted with String() instead of refused.',
  // ── allowed_methods / allowed_channels ──
  'lowercase-method-accepted':
    'allowed_methods are upper-cased before the check: "bkash" or "Nagad" is accepted instead of refused.',
  'methods-trimmed':
    'allowed_methods items are trimmed before the check: "BKASH " or "	NAGAD" is accepted as a method.',
  'nagad-not-accepted':
    'The method list is out of date and knows BKASH only: allowed_methods naming NAGAD is refused.',
  'unknown-channel-accepted':
    'allowed_channels is only checked to be an array of strings: unknown channels ("CASH_OUT", "send_money") are accepted.',
  'channels-case-folded':
    'allowed_channels items are trimmed and upper-cased before the check: "cash_in" or " PAYMENT" is accepted as a channel.',
  'bank-transfer-channel-rejected':
    'The channel list predates BANK_TRANSFER: allowed_channels naming it is refused with invalid_allowed_channel.',
  // ── context_items ──
  'context-items-ignored':
    'context_items is treated like any unknown field and silently ignored: the Payment is created.',
  // ── lengths ──
  'description-too-long-answers-invalid-request':
    'An over-long description is refused with the generic invalid_request instead of description_too_long.',
  'merchant-reference-truncated':
    'An over-long merchant_reference is silently cut to 255 characters (a lenient VARCHAR(255)) instead of refused with reference_too_long.',
  'external-id-too-long-crashes':
    'The external_id length is never checked: the unique index refuses an over-long key and the database error answers 500.',
  // ── echo, types, bodies ──
  'merchant-reference-dropped':
    'The insert forgets merchant_reference: it is accepted but stored and answered as null.',
  'string-fields-coerced':
    'description and merchant_reference of another JSON type (number, boolean, array, object) are converted with String() instead of refused.',
  'malformed-json-read-as-empty-object':
    'The body parser swallows a JSON syntax error and hands on {}: a malformed body answers invalid_amount ("amount is required") instead of invalid_request.',
  'double-encoded-json-body-accepted':
    'A body that is a JSON string is parsed a second time, so a valid request encoded twice creates a Payment instead of being refused as not an object.',
  'validation-errors-aggregated':
    'When several fields are invalid the errors are merged into one generic invalid_request, a code that applies to none of them when each has its own.',
} as const satisfies Readonly<Record<string, string>>;
