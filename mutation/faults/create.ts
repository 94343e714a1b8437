/**
 * What must catch each planted fault of reference/faults/create.ts: the catalogue rules that must fail (or warn, for a SHOULD rule).
 */
import type { CREATE_FAULTS } from '../../reference/faults/create.ts';
import type { ExpectationsOf } from './expectation.ts';

export const CREATE_EXPECTED = {
  // ── amount ──
  'amount-through-float': { breaks: ['CREATE-AMOUNT-DECIMAL-EXACT', 'CREATE-FIELDS-ECHOED'] },
  'amount-column-too-narrow': { breaks: ['CREATE-VALID-ACCEPTED', 'CREATE-AMOUNT-DECIMAL-EXACT', 'CREATE-FIELDS-ECHOED'] },
  'amount-three-decimals-accepted': { breaks: ['CREATE-AMOUNT-INVALID'] },
  'amount-two-decimals-rejected': { breaks: ['CREATE-VALID-ACCEPTED'] },
  'amount-zero-accepted': { breaks: ['CREATE-AMOUNT-INVALID'] },
  'amount-number-accepted': { breaks: ['CREATE-AMOUNT-NOT-STRING', 'CREATE-WRONG-TYPE'] },
  'amount-missing-crashes': { breaks: ['CREATE-AMOUNT-MISSING', 'CREATE-AMOUNT-NOT-STRING', 'RESP-NO-5XX'] },
  // ── return_url ──
  'forbidden-scheme-case-sensitive': { breaks: ['CREATE-RETURN-URL-FORBIDDEN-SCHEME'] },
  'return-url-scheme-checked-before-cleaning': { breaks: ['CREATE-RETURN-URL-FORBIDDEN-SCHEME'] },
  'http-return-url-accepted': { breaks: ['CREATE-RETURN-URL-NOT-HTTPS'] },
  'deep-link-return-url-rejected': { breaks: ['CREATE-RETURN-URL-VALID', 'CREATE-VALID-ACCEPTED', 'CREATE-FIELDS-ECHOED'] },
  // ── metadata ──
  'metadata-21-keys-accepted': { breaks: ['CREATE-METADATA-TOO-MANY-KEYS'] },
  'metadata-key-length-off-by-one': { breaks: ['CREATE-METADATA-KEY-TOO-LONG'] },
  'metadata-value-length-off-by-one': { breaks: ['CREATE-METADATA-VALUE-TOO-LONG'] },
  'metadata-at-limit-rejected': { breaks: ['CREATE-METADATA-AT-LIMITS', 'CREATE-VALID-ACCEPTED', 'CREATE-FIELDS-ECHOED'] },
  'metadata-20-keys-rejected': { breaks: ['CREATE-METADATA-AT-LIMITS'] },
  'metadata-64-char-key-rejected': { breaks: ['CREATE-METADATA-AT-LIMITS'] },
  'metadata-length-counted-in-utf16-units': { breaks: ['CREATE-METADATA-AT-LIMITS'] },
  'metadata-length-counted-in-bytes': { breaks: ['CREATE-METADATA-AT-LIMITS'] },
  'metadata-500-char-value-rejected': { breaks: ['CREATE-METADATA-AT-LIMITS'] },
  'metadata-non-string-values-accepted': { breaks: ['CREATE-METADATA-NOT-STRINGS'] },
  // ── allowed_methods / allowed_channels ──
  'lowercase-method-accepted': { breaks: ['CREATE-ALLOWED-METHODS-INVALID'] },
  'methods-trimmed': { breaks: ['CREATE-ALLOWED-METHODS-INVALID'] },
  'nagad-not-accepted': { breaks: ['CREATE-ALLOWED-METHODS-VALID', 'CREATE-VALID-ACCEPTED', 'CREATE-FIELDS-ECHOED'] },
  'unknown-channel-accepted': { breaks: ['CREATE-ALLOWED-CHANNELS-INVALID'] },
  'channels-case-folded': { breaks: ['CREATE-ALLOWED-CHANNELS-INVALID'] },
  'bank-transfer-channel-rejected': { breaks: ['CREATE-ALLOWED-CHANNELS-VALID', 'CREATE-VALID-ACCEPTED', 'CREATE-FIELDS-ECHOED'] },
  // ── context_items ──
  'context-items-ignored': { breaks: ['CREATE-CONTEXT-ITEMS-REJECTED'] },
  // ── lengths ──
  'description-too-long-answers-invalid-request': { breaks: ['CREATE-DESCRIPTION-TOO-LONG-CODE'] },
  'merchant-reference-truncated': { breaks: ['CREATE-REFERENCE-TOO-LONG-CODE'] },
  'external-id-too-long-crashes': { breaks: ['CREATE-EXTERNAL-ID-TOO-LONG-CODE', 'RESP-NO-5XX'] },
  // ── echo, types, bodies ──
  'merchant-reference-dropped': { breaks: ['CREATE-FIELDS-ECHOED', 'CREATE-REFERENCE-TOO-LONG-CODE'] },
  'string-fields-coerced': { breaks: ['CREATE-WRONG-TYPE'] },
  'malformed-json-read-as-empty-object': { breaks: ['CREATE-MALFORMED-JSON'] },
  'double-encoded-json-body-accepted': { breaks: ['CREATE-BODY-NOT-OBJECT'] },
  'validation-errors-aggregated': { breaks: ['CREATE-MULTI-VIOLATION'] },
} as const satisfies ExpectationsOf<typeof CREATE_FAULTS>;
