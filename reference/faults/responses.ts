/**
 * Planted faults of the responses area (spec: Error, Errors, Error statuses per operation,
 * Payment, PaymentList, Enumerations), each a realistic bug in the one reference function that
 * produces the answer.
 */

export const RESPONSES_FAULTS = {
  'unshaped-payment-id-answers-400':
    'An id that does not look like a Payment id (`pay_` + 24 characters) is refused with 400 invalid_request on get, cancel and the helpers, a status those operations do not list (they answer 404).',
  'error-envelope-without-request-id':
    'Error answers leave request_id out of the envelope (it only goes into the Request-Id header).',
  'external-id-conflict-answers-400':
    'A reused external_id answers 400 with code external_id_conflict (validation-style status) instead of the table\'s 409.',
  'create-answers-amount-as-number':
    'The 201 of createPayment serialises amount as a JSON number (the ORM\'s decimal), not a decimal string.',
  'get-livemode-always-false':
    'getPayment hard-codes livemode false, so a Live Payment read with the Live key claims to be a Test one.',
  'checkout-url-relative':
    'checkout_url is stored as the path of the hosted page (`/c/pay_…`), not an absolute URL.',
  'checkout-url-plain-http':
    'checkout_url is built with http:// (the scheme of the internal load balancer) instead of https://.',
  'list-omits-has-more':
    'listPayments leaves has_more out of the PaymentList when it is false.',
  'allowed-methods-echoed-lowercase':
    'allowed_methods are stored and answered in lower case (`bkash`), values PaymentMethod does not document.',
  'unknown-route-plain-text':
    'The 404 not_found of an unknown route is sent with Content-Type text/plain (the framework\'s default), although the body is the JSON envelope.',
  'request-id-per-connection':
    'The request id is minted once per keep-alive connection, so every request on one connection quotes the same request_id.',
  'malformed-json-crashes':
    'createPayment parses the body with a bare JSON.parse before validation: a body that is not JSON throws and answers 500 internal_error.',
} as const satisfies Readonly<Record<string, string>>;
