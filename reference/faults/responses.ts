/**
 * Planted faults of the responses area (spec: Error, Errors, Error statuses per operation,
 * Payment, PaymentList, Enumerations), each a realistic bug in the one reference function that
 * produces the answer, with the rule ids it must make fail.
 */
import type { FaultDefinition } from '../faults.ts';

export const RESPONSES_FAULTS = {
  'unshaped-payment-id-answers-400': {
    description: 'An id that does not look like a Payment id (`pay_` + 24 characters) is refused with 400 invalid_request on get, cancel and the helpers, a status those operations do not list (they answer 404).',
    breaks: ['RESP-STATUS-LISTED'],
  },
  'error-envelope-without-request-id': {
    description: 'Error answers leave request_id out of the envelope (it only goes into the Request-Id header).',
    breaks: ['RESP-ERROR-ENVELOPE'],
  },
  'external-id-conflict-answers-400': {
    description: 'A reused external_id answers 400 with code external_id_conflict (validation-style status) instead of the table\'s 409.',
    breaks: ['RESP-ERROR-STATUS-MATCHES-CODE'],
  },
  'create-answers-amount-as-number': {
    description: 'The 201 of createPayment serialises amount as a JSON number (the ORM\'s decimal), not a decimal string.',
    breaks: ['RESP-PAYMENT-SCHEMA'],
  },
  'get-livemode-always-false': {
    description: 'getPayment hard-codes livemode false, so a Live Payment read with the Live key claims to be a Test one.',
    breaks: ['RESP-PAYMENT-LIVEMODE'],
  },
  'checkout-url-relative': {
    description: 'checkout_url is stored as the path of the hosted page (`/c/pay_…`), not an absolute URL.',
    breaks: ['RESP-PAYMENT-CHECKOUT-URL'],
  },
  'checkout-url-plain-http': {
    description: 'checkout_url is built with http:// (the scheme of the internal load balancer) instead of https://.',
    breaks: ['RESP-CHECKOUT-URL-HTTPS'],
  },
  'list-omits-has-more': {
    description: 'listPayments leaves has_more out of the PaymentList when it is false.',
    breaks: ['RESP-LIST-SCHEMA'],
  },
  'allowed-methods-echoed-lowercase': {
    description: 'allowed_methods are stored and answered in lower case (`bkash`), values PaymentMethod does not document.',
    breaks: ['RESP-ENUM-KNOWN'],
  },
  'unknown-route-plain-text': {
    description: 'The 404 not_found of an unknown route is sent with Content-Type text/plain (the framework\'s default), although the body is the JSON envelope.',
    breaks: ['RESP-JSON-CONTENT-TYPE'],
  },
  'request-id-per-connection': {
    description: 'The request id is minted once per keep-alive connection, so every request on one connection quotes the same request_id.',
    breaks: ['RESP-REQUEST-ID-UNIQUE'],
  },
  'malformed-json-crashes': {
    description: 'createPayment parses the body with a bare JSON.parse before validation: a body that is not JSON throws and answers 500 internal_error.',
    breaks: ['RESP-NO-5XX'],
  },
} satisfies Record<string, FaultDefinition>;
