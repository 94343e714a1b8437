/**
 * malformedAuthorization: Authorization headers that are not `Bearer <key>` (spec, Authentication:
 * "Missing, malformed, unknown or revoked key: 401 invalid_api_key"), each with a valid key hidden
 * where a lenient parser would find it (so a parser that ignores the scheme or the prefix lets it
 * through).
 *
 * The valid form (RFC 6750 §2.1, and the spec's "Authorization: Bearer <API_KEY>"):
 *
 *   credentials = "Bearer" 1*SP token        ; token = "pt_test_sk_" / "pt_live_sk_" followed by the key
 *
 * Not settled by the spec, and therefore not generated with the valid key: the scheme's case (RFC
 * 9110 §11.1 makes it case-insensitive), several spaces after it (1*SP), and whitespace around the
 * field value (RFC 9110 §5.5 OWS); those forms appear here only with an unknown key.
 *
 * Header values are latin1 strings: non-ASCII text is sent as its UTF-8 bytes (what a client does),
 * and no control character is generated (undici refuses them client-side).
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { alnum, printedAs, splitKey, type BadCredential, type CredentialConstraints } from './internal/credentials.ts';

/** UTF-8 bytes of `s`, as the latin1 string undici puts on the wire byte for byte. */
function utf8OnTheWire(s: string): string {
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
export function malformedAuthorization(key: string, constraints: CredentialConstraints = {}): Arbitrary<BadCredential> {
  const { secret } = splitKey(key);
  const m = (family: string) => (authorization: string): BadCredential => printedAs({ family, kind: 'malformed', authorization }, constraints.print);
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
