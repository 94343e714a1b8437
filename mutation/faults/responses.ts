/**
 * What must catch each planted fault of reference/faults/responses.ts: the catalogue rules that must fail (or warn, for a SHOULD rule).
 */
import type { RESPONSES_FAULTS } from '../../reference/faults/responses.ts';
import type { ExpectationsOf } from './expectation.ts';

export const RESPONSES_EXPECTED = {
  'unshaped-payment-id-answers-400': { breaks: ['RESP-STATUS-LISTED'] },
  'error-envelope-without-request-id': { breaks: ['RESP-ERROR-ENVELOPE'] },
  'external-id-conflict-answers-400': { breaks: ['RESP-ERROR-STATUS-MATCHES-CODE'] },
  'create-answers-amount-as-number': { breaks: ['RESP-PAYMENT-SCHEMA'] },
  'get-livemode-always-false': { breaks: ['RESP-PAYMENT-LIVEMODE'] },
  'checkout-url-relative': { breaks: ['RESP-PAYMENT-CHECKOUT-URL'] },
  'checkout-url-plain-http': { breaks: ['RESP-CHECKOUT-URL-HTTPS'] },
  'list-omits-has-more': { breaks: ['RESP-LIST-SCHEMA'] },
  'allowed-methods-echoed-lowercase': { breaks: ['RESP-ENUM-KNOWN'] },
  'unknown-route-plain-text': { breaks: ['RESP-JSON-CONTENT-TYPE'] },
  'request-id-per-connection': { breaks: ['RESP-REQUEST-ID-UNIQUE'] },
  'malformed-json-crashes': { breaks: ['RESP-NO-5XX'] },
} as const satisfies ExpectationsOf<typeof RESPONSES_FAULTS>;
