/**
 * Credentials that are not a valid key (spec, Authentication: "Missing, malformed, unknown or
 * revoked key: 401 invalid_api_key"), as fast-check arbitraries and as a table with one case of
 * every family (so every family is exercised whatever the seed).
 *
 * The valid form (RFC 6750 §2.1, and the spec's "Authorization: Bearer <API_KEY>"):
 *
 *   credentials = "Bearer" 1*SP token        ; token = "pt_test_sk_" / "pt_live_sk_" followed by the key
 *
 * Not settled by the spec, and therefore only observed with a valid key (never asserted): the
 * scheme's case (RFC 9110 §11.1 makes it case-insensitive), several spaces after it (1*SP), and
 * whitespace around the field value (RFC 9110 §5.5 OWS).
 *
 * Header values are sent as latin1 strings: non-ASCII text is sent as its UTF-8 bytes (what a
 * client does), and no control character is generated (undici refuses them client-side).
 */
import fc from 'fast-check';
import { fingerprint } from '../../core/redact.ts';
import type { Credentials } from '../_shared/valid-request.ts';
import { splitKey } from './invalid-key.ts';

export interface BadCredential extends Credentials {
  /** Family of the case, e.g. `basic scheme`, `wrong prefix`. */
  family: string;
  kind: 'missing' | 'malformed' | 'unknown' | 'revoked';
}

/**
 * A bad credential as evidence (fast-check's counterexample, transcripts): its family, kind, length
 * and a fingerprint, never its text (it often embeds a real key, encoded or altered).
 */
export function credentialEvidence(c: BadCredential): string {
  const text = c.authorization ?? c.key;
  const what = text === undefined || text === null ? 'none' : `${text.length} chars, ${fingerprint(text)}`;
  return `{family:${JSON.stringify(c.family)},kind:${JSON.stringify(c.kind)},credential:"${c.authorization !== undefined ? 'Authorization ' : 'key '}${what}"}`;
}

/** Attaches {@link credentialEvidence} as the value's printed form (non-enumerable: spreads never copy it). */
export function asEvidence(c: BadCredential): BadCredential {
  Object.defineProperty(c, fc.toStringMethod, { value: () => credentialEvidence(c), enumerable: false });
  return c;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const alnumChar = fc.constantFrom(...ALNUM);
const alnum = (minLength: number, maxLength: number) => fc.string({ unit: alnumChar, minLength, maxLength });

/** UTF-8 bytes of `s`, as the latin1 string undici puts on the wire byte for byte. */
export function utf8OnTheWire(s: string): string {
  return Buffer.from(s, 'utf8').toString('latin1');
}

function insertAt(s: string, at: number, text: string): string {
  const i = at % (s.length + 1);
  return `${s.slice(0, i)}${text}${s.slice(i)}`;
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/** Non-ASCII text: a few classic traps (dotless i, NBSP, zero-width space, BOM, emoji) or any. */
const nonAscii = fc.oneof(
  fc.constantFrom('é', 'ß', 'ı', 'İ', 'ſ', '\u00a0', '\u200b', '\ufeff', '中文', '🔑', 'Ω', 'ｐ'),
  fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 4 })
    .map((s) => [...s].filter((c) => c.codePointAt(0)! >= 0x80).join(''))
    .filter((s) => s.length > 0),
);

/** Prefixes that are not `pt_test_sk_` / `pt_live_sk_`. */
const wrongPrefix = fc.oneof(
  fc.constantFrom('pt_prod_sk_', 'pt_test_pk_', 'pt_live_pk_', 'pt_sandbox_sk_', 'sk_test_', 'sk_live_', 'pt_sk_', 'pt_test_', 'test_sk_', 'PT_TEST_SK_', 'pt-test-sk-', 'pt_Test_sk_', 'pt_test_sk', 'ptest_sk_'),
  fc
    .string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), minLength: 2, maxLength: 8 })
    .filter((w) => w !== 'test' && w !== 'live')
    .map((w) => `pt_${w}_sk_`),
);

/**
 * Malformed Authorization headers. `key` is a valid Test key with both scopes, embedded where a
 * lenient parser would find it (so a parser that ignores the scheme or the prefix lets it through).
 */
export function malformedAuthorization(key: string): fc.Arbitrary<BadCredential> {
  const { secret } = splitKey(key);
  const m = (family: string) => (authorization: string): BadCredential => asEvidence({ family, kind: 'malformed', authorization });
  return fc.oneof(
    fc.constantFrom('', ' ').map(m('empty header')),
    fc.constantFrom('Bearer', 'bearer', 'BEARER', 'Bearer ', 'Bearer    ').map(m('scheme alone')),
    fc.constant(key).map(m('key without scheme')),
    fc.constantFrom(`Basic ${b64(`${key}:`)}`, `Basic ${b64(`:${key}`)}`, `Basic ${b64(key)}`, `Basic ${key}`).map(m('basic scheme')),
    fc.constantFrom('Token', 'Digest', 'ApiKey', 'Key', 'JWT', 'MAC', 'Bearer-Token', 'OAuth', 'Secret').map((s) => m('other scheme')(`${s} ${key}`)),
    fc.constantFrom(`Bearer${key}`, `Bearer:${key}`, `Bearer=${key}`, `Bearer_${key}`, `Bearer:${b64(key)}`).map(m('scheme glued to key')),
    fc.constantFrom(`Bearer "${key}"`, `Bearer '${key}'`, `Bearer <${key}>`, `Bearer {${key}}`).map(m('quoted key')),
    fc.oneof(
      alnum(1, 12).map((w) => `Bearer ${key} ${w}`),
      fc.constantFrom(`Bearer ${key} ${key}`, `Bearer ${key},`, `Bearer ${key};`, `Bearer ${key}, Bearer ${key}`, `Bearer Bearer ${key}`),
    ).map(m('extra token')),
    fc.nat().map((at) => `Bearer ${insertAt(key, 1 + (at % (key.length - 1)), ' ')}`).map(m('space inside the key')),
    wrongPrefix.map((p) => `Bearer ${p}${secret}`).map(m('wrong prefix')),
    fc.constantFrom('Bearer pt_test_sk_', 'Bearer pt_live_sk_', 'Bearer pt_', 'Bearer _').map(m('prefix alone')),
    fc.tuple(fc.nat(), nonAscii).map(([at, s]) => `Bearer ${insertAt(key, 11 + (at % (secret.length + 1)), utf8OnTheWire(s))}`).map(m('non-ASCII in the key')),
    fc.nat().map((at) => `Bearer ${insertAt(key, 11 + (at % secret.length), 'é')}`).map(m('latin1 byte in the key')),
    fc.oneof(
      fc.integer({ min: 256, max: 4096 }).map((n) => `Bearer pt_test_sk_${'A'.repeat(n)}`),
      fc.integer({ min: 2, max: 60 }).map((n) => `Bearer ${key}${secret.repeat(n)}`),
    ).map(m('very long key')),
    fc.constantFrom(`Bearer ${key.toUpperCase()}`, `Bearer ${encodeURIComponent(key).replace(/_/g, '%5F')}`, `Bearer ${key}.`, `Bearer ${key}\\`, `Bearer ${key}%00`).map(m('key decorated')),
    // Lenient forms are only malformed here because the key is not a valid one.
    alnum(16, 40).map((s) => `bearer pt_test_sk_${s}`).map(m('lowercase scheme, unknown key')),
    fc.tuple(fc.integer({ min: 2, max: 8 }), alnum(16, 40)).map(([n, s]) => `Bearer${' '.repeat(n)}pt_test_sk_${s}`).map(m('extra spaces, unknown key')),
    alnum(16, 40).map((s) => `Bearer\tpt_test_sk_${s}`).map(m('tab separator, unknown key')),
  );
}

/**
 * Well-formed keys the service never issued: random keys of both prefixes, and near misses of the
 * issued ones (one character changed, truncated, extended, case-swapped, the other environment's
 * prefix). `issued` are every key of the profile (filtered out); `bases` the keys mutated.
 */
export function unknownKey(bases: readonly string[], issued: readonly string[]): fc.Arbitrary<BadCredential> {
  const known = new Set(issued);
  const u = (family: string) => (key: string): BadCredential => asEvidence({ family, kind: 'unknown', key });
  const base = fc.constantFrom(...bases);
  return fc
    .oneof(
      alnum(8, 48).map((s) => u('random Test key')(`pt_test_sk_${s}`)),
      alnum(8, 48).map((s) => u('random Live key')(`pt_live_sk_${s}`)),
      fc.tuple(base, fc.nat(), alnumChar).map(([k, at, c]) => {
        const { prefix, secret } = splitKey(k);
        const i = at % secret.length;
        const repl = secret[i] === c ? (c === 'A' ? 'B' : 'A') : c;
        return u('one character changed')(`${prefix}${secret.slice(0, i)}${repl}${secret.slice(i + 1)}`);
      }),
      fc.tuple(base, fc.nat()).map(([k, n]) => {
        const { prefix, secret } = splitKey(k);
        return u('truncated')(`${prefix}${secret.slice(0, Math.max(1, secret.length - 1 - (n % (secret.length - 1))))}`);
      }),
      fc.tuple(base, alnum(1, 8)).map(([k, s]) => u('extended')(`${k}${s}`)),
      base.map((k) => {
        const { prefix, secret } = splitKey(k);
        return u('case swapped')(`${prefix}${[...secret].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('')}`);
      }),
      base.map((k) => {
        const { prefix, secret } = splitKey(k);
        return u('other environment prefix')(`${prefix === 'pt_live_sk_' ? 'pt_test_sk_' : 'pt_live_sk_'}${secret}`);
      }),
      alnum(200, 1024).map((s) => u('long random key')(`pt_test_sk_${s}`)),
    )
    .filter((c) => !known.has(c.key!));
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

/** Every way of not holding a valid key: missing, malformed, unknown, and revoked when the profile has one. */
export function invalidCredentials(keys: { test: string; live?: string; test_revoked?: string }, issued: readonly string[]): fc.Arbitrary<BadCredential> {
  const arbs: fc.Arbitrary<BadCredential>[] = [
    fc.constant<BadCredential>(asEvidence({ family: 'no Authorization header', kind: 'missing', key: null })),
    malformedAuthorization(keys.test),
    unknownKey([keys.test, ...(keys.live ? [keys.live] : [])], issued),
  ];
  if (keys.test_revoked) arbs.push(fc.constant<BadCredential>(asEvidence({ family: 'revoked key', kind: 'revoked', key: keys.test_revoked })));
  return fc.oneof(...arbs);
}

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
