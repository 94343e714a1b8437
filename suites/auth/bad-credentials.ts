/**
 * Bad credentials for the auth suite: the generators (service/generators/malformed-authorization.ts,
 * unknown-key.ts, invalid-credentials.ts) printed with a fingerprint, a table with one case of
 * every family (so every family is exercised whatever the seed), the profile's issued keys, and
 * the lenient forms of a valid key that are only observed.
 */
import type fc from 'fast-check';
import { fingerprint } from '../../core/redact.ts';
import { invalidCredentials as anyInvalid, type BadCredential } from '../../service/generators/invalid-credentials.ts';
import { malformedAuthorization as malformed } from '../../service/generators/malformed-authorization.ts';
import { unknownKey as unknown } from '../../service/generators/unknown-key.ts';

export type { BadCredential };

/**
 * A bad credential as evidence (fast-check's counterexample, transcripts): its family, kind, length
 * and a fingerprint, never its text (it often embeds a real key, encoded or altered).
 */
export function credentialEvidence(c: BadCredential): string {
  const text = c.authorization ?? c.key;
  const what = text === undefined || text === null ? 'none' : `${text.length} chars, ${fingerprint(text)}`;
  return `{family:${JSON.stringify(c.family)},kind:${JSON.stringify(c.kind)},credential:"${c.authorization !== undefined ? 'Authorization ' : 'key '}${what}"}`;
}

/** Malformed Authorization headers around a valid Test key, printed as {@link credentialEvidence}. */
export function malformedAuthorization(key: string): fc.Arbitrary<BadCredential> {
  return malformed(key, { print: credentialEvidence });
}

/** Well-formed keys never issued, printed as {@link credentialEvidence}. */
export function unknownKey(bases: readonly string[], issued: readonly string[]): fc.Arbitrary<BadCredential> {
  return unknown(bases, issued, { print: credentialEvidence });
}

/** Missing, malformed, unknown and revoked credentials, printed as {@link credentialEvidence}. */
export function invalidCredentials(keys: { test: string; live?: string; test_revoked?: string }, issued: readonly string[]): fc.Arbitrary<BadCredential> {
  return anyInvalid(keys, issued, { print: credentialEvidence });
}

/**
 * One case per family: the first value of each family among `draws` (from the rule's seed, see
 * suites/_shared/seeded-draw.ts). 2000 draws miss a family of weight 1/72 (a malformed family under
 * invalidCredentials) with probability below 1e-11, so every family is there whatever the seed.
 */
export function oneOfEachFamily(draws: readonly BadCredential[]): BadCredential[] {
  const byFamily = new Map<string, BadCredential>();
  for (const c of draws) if (!byFamily.has(c.family)) byFamily.set(c.family, c);
  return [...byFamily.values()];
}

/** Draws enough for {@link oneOfEachFamily}. */
export const FAMILY_DRAWS = 2000;

/** Every key the profile declares (none of them is "unknown"). */
export function issuedKeys(keys: Record<string, string | undefined>): string[] {
  return Object.values(keys).filter((k): k is string => typeof k === 'string');
}

/**
 * The forms a lenient but standard parser accepts with a valid key (scheme case, 1*SP, OWS), and two
 * that are not standard (a tab, a trailing non-breaking space byte). Observed, never asserted.
 */
export function lenientForms(key: string): Array<{ form: string; authorization: string }> {
  return [
    { form: 'lowercase scheme "bearer <key>"', authorization: `bearer ${key}` },
    { form: 'uppercase scheme "BEARER <key>"', authorization: `BEARER ${key}` },
    { form: 'two spaces "Bearer  <key>"', authorization: `Bearer  ${key}` },
    { form: 'surrounding spaces " Bearer <key> "', authorization: ` Bearer ${key} ` },
    { form: 'tab separator "Bearer\\t<key>"', authorization: `Bearer\t${key}` },
    { form: 'trailing tab "Bearer <key>\\t"', authorization: `Bearer ${key}\t` },
    { form: 'trailing NBSP byte 0xA0 "Bearer <key>\\xa0"', authorization: `Bearer ${key}\u00a0` },
  ];
}
