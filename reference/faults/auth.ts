/**
 * Planted faults of the auth area (spec, Authentication), each a realistic bug in
 * reference/auth.ts or in the scope step of reference/app.ts, with the rule ids it must make fail.
 */
import type { FaultDefinition } from '../faults.ts';

export const AUTH_FAULTS = {
  'missing-key-uses-default-key': {
    description: 'A request without an Authorization header is served as the first Test key of the store (a development fallback left on).',
    breaks: ['AUTH-MISSING-KEY', 'AUTH-NO-KEY-NEVER-SUCCEEDS'],
  },
  'bearer-scheme-not-checked': {
    description: 'The key is taken as the last word of the Authorization header whatever the scheme: `Token <key>`, `Basic <key>` and a bare key are accepted.',
    breaks: ['AUTH-MALFORMED-KEY', 'AUTH-NO-KEY-NEVER-SUCCEEDS'],
  },
  'basic-scheme-accepted': {
    description: 'HTTP Basic is accepted as well as Bearer: `Basic base64(<key>:)` authenticates as <key> (a gateway convenience left on).',
    breaks: ['AUTH-MALFORMED-KEY', 'AUTH-NO-KEY-NEVER-SUCCEEDS'],
  },
  'key-prefix-not-checked': {
    description: 'Keys are looked up by their random part only: any prefix (`pt_prod_sk_`, `sk_test_`, the other environment\'s) in front of an issued key\'s random part is accepted.',
    breaks: ['AUTH-MALFORMED-KEY', 'AUTH-UNKNOWN-KEY', 'AUTH-NO-KEY-NEVER-SUCCEEDS'],
  },
  'key-compared-by-prefix': {
    description: 'Keys are compared on their first 20 characters only: a near miss of an issued key (last character changed, extended, truncated to 20+) is accepted as that key.',
    breaks: ['AUTH-UNKNOWN-KEY', 'AUTH-MALFORMED-KEY', 'AUTH-NO-KEY-NEVER-SUCCEEDS'],
  },
  'revoked-key-accepted': {
    description: 'The revoked flag of a key is never consulted: a revoked key keeps working.',
    breaks: ['AUTH-REVOKED-KEY', 'AUTH-NO-KEY-NEVER-SUCCEEDS'],
  },
  'read-scope-not-enforced': {
    description: 'payments:read is never checked: a write-only key can list and get Payments.',
    breaks: ['AUTH-READ-SCOPE-REQUIRED'],
  },
  'write-scope-checked-after-operation': {
    description: 'payments:write is checked after the operation ran: a read-only key gets 403 insufficient_scope but the Payment is created, cancelled or completed all the same.',
    breaks: ['AUTH-WRITE-SCOPE-REQUIRED'],
  },
  'cancel-requires-read-scope': {
    description: 'cancelPayment also demands payments:read (it reuses the getPayment lookup with its scope): a write-only key gets 403 on cancel.',
    breaks: ['AUTH-SCOPE-SUFFICIENT'],
  },
  'no-www-authenticate-on-401': {
    description: '401 invalid_api_key answers carry no WWW-Authenticate header.',
    breaks: ['AUTH-WWW-AUTHENTICATE'],
  },
} satisfies Record<string, FaultDefinition>;
