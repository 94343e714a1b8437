/**
 * invalidCredentials: every way of not holding a valid key (spec, Authentication: "Missing,
 * malformed, unknown or revoked key: 401 invalid_api_key"): no Authorization header, a malformed
 * one (malformedAuthorization), an unknown key (unknownKey), and the revoked key when the profile
 * has one. Each case prints as its family and kind, never its text (see CredentialConstraints).
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { printedAs, type BadCredential, type CredentialConstraints } from './internal/credentials.ts';
import { malformedAuthorization } from './malformed-authorization.ts';
import { unknownKey } from './unknown-key.ts';

export {
  splitKey,
  printWithoutText,
  type BadCredential,
  type CredentialConstraints,
  type PrintCredential,
} from './internal/credentials.ts';

/** Every way of not holding a valid key: missing, malformed, unknown, and revoked when the profile has one. */
export function invalidCredentials(
  keys: { test: string; live?: string; test_revoked?: string },
  issued: readonly string[],
  constraints: CredentialConstraints = {},
): Arbitrary<BadCredential> {
  const arbs: Arbitrary<BadCredential>[] = [
    fc.constant<BadCredential>(printedAs({ family: 'no Authorization header', kind: 'missing', key: null }, constraints.print)),
    malformedAuthorization(keys.test, constraints),
    unknownKey([keys.test, ...(keys.live ? [keys.live] : [])], issued, constraints),
  ];
  if (keys.test_revoked) arbs.push(fc.constant<BadCredential>(printedAs(
    { family: 'revoked key', kind: 'revoked', key: keys.test_revoked },
    constraints.print,
  )));
  return fc.oneof(...arbs);
}
