/**
 * What must catch each planted fault of reference/faults/auth.ts: the catalogue rules that must fail (or warn, for a SHOULD rule).
 */
import type { AUTH_FAULTS } from '../../reference/faults/auth.ts';
import type { ExpectationsOf } from './expectation.ts';

export const AUTH_EXPECTED = {
  'missing-key-uses-default-key': { breaks: ['AUTH-MISSING-KEY', 'AUTH-NO-KEY-NEVER-SUCCEEDS'] },
  'bearer-scheme-not-checked': { breaks: ['AUTH-MALFORMED-KEY', 'AUTH-NO-KEY-NEVER-SUCCEEDS'] },
  'basic-scheme-accepted': { breaks: ['AUTH-MALFORMED-KEY', 'AUTH-NO-KEY-NEVER-SUCCEEDS'] },
  'key-prefix-not-checked': { breaks: ['AUTH-MALFORMED-KEY', 'AUTH-UNKNOWN-KEY', 'AUTH-NO-KEY-NEVER-SUCCEEDS'] },
  'key-compared-by-prefix': { breaks: ['AUTH-UNKNOWN-KEY', 'AUTH-MALFORMED-KEY', 'AUTH-NO-KEY-NEVER-SUCCEEDS'] },
  'revoked-key-accepted': { breaks: ['AUTH-REVOKED-KEY', 'AUTH-NO-KEY-NEVER-SUCCEEDS'] },
  'read-scope-not-enforced': { breaks: ['AUTH-READ-SCOPE-REQUIRED'] },
  'write-scope-checked-after-operation': { breaks: ['AUTH-WRITE-SCOPE-REQUIRED'] },
  'cancel-requires-read-scope': { breaks: ['AUTH-SCOPE-SUFFICIENT'] },
  'no-www-authenticate-on-401': { breaks: ['AUTH-WWW-AUTHENTICATE'] },
} as const satisfies ExpectationsOf<typeof AUTH_FAULTS>;
