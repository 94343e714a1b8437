/**
 * Planted faults of the auth area (spec, Authentication), each a realistic bug in
 * reference/auth.ts or in the scope step of reference/app.ts.
 */

export const AUTH_FAULTS = {
  'missing-key-uses-default-key':
    'A request without an Authorization header is served as the first Test key of the store (a development fallback left on).',
  'bearer-scheme-not-checked':
    'The key is taken as the last word of the Authorization header whatever the scheme: `Token <key>`, `Basic <key>` and a bare key are accepted.',
  'basic-scheme-accepted':
    'HTTP Basic is accepted as well as Bearer: `Basic base64(<key>:)` authenticates as <key> (a gateway convenience left on).',
  'key-prefix-not-checked':
    'Keys are looked up by their random part only: any prefix (`pt_prod_sk_`, `sk_test_`, the other environment\'s) in front of an issued key\'s random part is accepted.',
  'key-compared-by-prefix':
    'Keys are compared on their first 20 characters only: a near miss of an issued key (last character changed, extended, truncated to 20+) is accepted as that key.',
  'revoked-key-accepted':
    'The revoked flag of a key is never consulted: a revoked key keeps working.',
  'read-scope-not-enforced':
    'payments:read is never checked: a write-only key can list and get Payments.',
  'write-scope-checked-after-operation':
    'payments:write is checked after the operation ran: a read-only key gets 403 insufficient_scope but the Payment is created, cancelled or completed all the same.',
  'cancel-requires-read-scope':
    'cancelPayment also demands payments:read (it reuses the getPayment lookup with its scope): a write-only key gets 403 on cancel.',
  'no-www-authenticate-on-401':
    '401 invalid_api_key answers carry no WWW-Authenticate header.',
} as const satisfies Readonly<Record<string, string>>;
