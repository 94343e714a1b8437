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

/** Prefixes that are not `pt_test_sk_` / `pt_live_sk_` (the other environment's is the unknown-key family's). */
const WRONG_PREFIXES = [
  'pt_prod_sk_',
  'pt_test_pk_',
  'pt_live_pk_',
  'pt_sandbox_sk_',
  'sk_test_',
  'sk_live_',
  'pt_sk_',
  'pt_test_',
  'test_sk_',
  'PT_TEST_SK_',
  'pt-test-sk-',
  'pt_Test_sk_',
  'pt_test_sk',
  'ptest_sk_',
] as const;

const wrongPrefix = fc.oneof(
  fc.constantFrom(...WRONG_PREFIXES),
  fc
    .string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), minLength: 2, maxLength: 8 })
    .filter((w) => w !== 'test' && w !== 'live')
    .map((w) => `pt_${w}_sk_`),
);

/**
 * The fixed forms of each family: every scheme and encoding a clause names or implies (HTTP Basic of
 * `<key>:`, of `:<key>`, of `<key>`, the key unencoded; other schemes; no scheme; the scheme alone;
 * glued, quoted, decorated keys; wrong prefixes; the lenient spellings with an unknown key). They
 * are the deterministic table run on every seed ({@link malformedAuthorizationTable}) and the
 * constants the random cases draw from.
 */
export function fixedMalformedForms(key: string): ReadonlyArray<{ readonly family: string; readonly forms: readonly string[] }> {
  const { secret } = splitKey(key);
  const unknownSecret = 'Zq7Rk2Wn4Pd8Xt5Vb3Hc9Lm';
  return [
    { family: 'empty header', forms: ['', ' '] },
    { family: 'scheme alone', forms: ['Bearer', 'bearer', 'BEARER', 'Bearer ', 'Bearer    '] },
    { family: 'key without scheme', forms: [key, ` ${key}`] },
    {
      family: 'basic scheme',
      forms: [
        `Basic ${b64(`${key}:`)}`,
        `Basic ${b64(`:${key}`)}`,
        `Basic ${b64(key)}`,
        `Basic ${key}`,
        `basic ${b64(`${key}:`)}`,
        `Basic ${b64(`${key}:${key}`)}`,
      ],
    },
    {
      family: 'other scheme',
      forms: ['Token', 'Digest', 'ApiKey', 'Key', 'JWT', 'MAC', 'Bearer-Token', 'OAuth', 'Secret'].map((s) => `${s} ${key}`),
    },
    { family: 'scheme glued to key', forms: [`Bearer${key}`, `Bearer:${key}`, `Bearer=${key}`, `Bearer_${key}`, `Bearer:${b64(key)}`] },
    { family: 'quoted key', forms: [`Bearer "${key}"`, `Bearer '${key}'`, `Bearer <${key}>`, `Bearer {${key}}`] },
    {
      family: 'extra token',
      forms: [
        `Bearer ${key} ${key}`,
        `Bearer ${key},`,
        `Bearer ${key};`,
        `Bearer ${key}, Bearer ${key}`,
        `Bearer Bearer ${key}`,
        `Bearer ${key} x`,
      ],
    },
    { family: 'space inside the key', forms: [`Bearer ${insertAt(key, 11, ' ')}`, `Bearer ${insertAt(key, key.length - 1, ' ')}`] },
    { family: 'wrong prefix', forms: WRONG_PREFIXES.map((p) => `Bearer ${p}${secret}`) },
    { family: 'prefix alone', forms: ['Bearer pt_test_sk_', 'Bearer pt_live_sk_', 'Bearer pt_', 'Bearer _'] },
    {
      family: 'non-ASCII in the key',
      forms: ['é', '\u00a0', '\u200b', '\ufeff', '🔑'].map((c) => `Bearer ${insertAt(key, 11, utf8OnTheWire(c))}`),
    },
    { family: 'latin1 byte in the key', forms: [`Bearer ${insertAt(key, 11, 'é')}`, `Bearer ${key}é`] },
    { family: 'very long key', forms: [`Bearer pt_test_sk_${'A'.repeat(4096)}`, `Bearer ${key}${secret.repeat(2)}`] },
    {
      family: 'key decorated',
      forms: [
        `Bearer ${key.toUpperCase()}`,
        `Bearer ${encodeURIComponent(key).replace(/_/g, '%5F')}`,
        `Bearer ${key}.`,
        `Bearer ${key}\\`,
        `Bearer ${key}%00`,
      ],
    },
    // Lenient forms are only malformed here because the key is not a valid one.
    { family: 'lowercase scheme, unknown key', forms: [`bearer pt_test_sk_${unknownSecret}`] },
    { family: 'extra spaces, unknown key', forms: [`Bearer  pt_test_sk_${unknownSecret}`, `Bearer    pt_test_sk_${unknownSecret}`] },
    { family: 'tab separator, unknown key', forms: [`Bearer\tpt_test_sk_${unknownSecret}`] },
  ];
}

/** Every fixed form of {@link fixedMalformedForms} as a case, in table order: the same on every seed. */
export function malformedAuthorizationTable(key: string, constraints: CredentialConstraints = {}): BadCredential[] {
  return fixedMalformedForms(key).flatMap(({ family, forms }) => forms.map((authorization) => printedAs(
    { family, kind: 'malformed', authorization },
    constraints.print,
  )));
}

/**
 * Malformed Authorization headers. `key` is a valid Test key with both scopes, embedded where a
 * lenient parser would find it (so a parser that ignores the scheme or the prefix lets it through).
 * Each family draws from its fixed forms ({@link fixedMalformedForms}) or generates variants of them.
 */
export function malformedAuthorization(key: string, constraints: CredentialConstraints = {}): Arbitrary<BadCredential> {
  const { secret } = splitKey(key);
  const m = (family: string) => (authorization: string): BadCredential => printedAs(
    { family, kind: 'malformed', authorization },
    constraints.print,
  );
  const fixed = new Map(fixedMalformedForms(key).map((f) => [f.family, f.forms]));
  const of = (family: string) => fc.constantFrom(...fixed.get(family)!).map(m(family));
  return fc.oneof(
    of('empty header'),
    of('scheme alone'),
    of('key without scheme'),
    of('basic scheme'),
    of('other scheme'),
    of('scheme glued to key'),
    of('quoted key'),
    fc.oneof(alnum(1, 12).map((w) => `Bearer ${key} ${w}`), fc.constantFrom(...fixed.get('extra token')!)).map(m('extra token')),
    fc.nat().map((at) => `Bearer ${insertAt(key, 1 + (at % (key.length - 1)), ' ')}`).map(m('space inside the key')),
    wrongPrefix.map((p) => `Bearer ${p}${secret}`).map(m('wrong prefix')),
    of('prefix alone'),
    fc.tuple(
      fc.nat(),
      nonAscii,
    ).map(([at, s]) => `Bearer ${insertAt(key, 11 + (at % (secret.length + 1)), utf8OnTheWire(s))}`).map(m('non-ASCII in the key')),
    fc.nat().map((at) => `Bearer ${insertAt(key, 11 + (at % secret.length), 'é')}`).map(m('latin1 byte in the key')),
    fc.oneof(
      fc.integer({ min: 256, max: 4096 }).map((n) => `Bearer pt_test_sk_${'A'.repeat(n)}`),
      fc.integer({ min: 2, max: 60 }).map((n) => `Bearer ${key}${secret.repeat(n)}`),
    ).map(m('very long key')),
    of('key decorated'),
    alnum(16, 40).map((s) => `bearer pt_test_sk_${s}`).map(m('lowercase scheme, unknown key')),
    fc.tuple(
      fc.integer({ min: 2, max: 8 }),
      alnum(16, 40),
    ).map(([n, s]) => `Bearer${' '.repeat(n)}pt_test_sk_${s}`).map(m('extra spaces, unknown key')),
    alnum(16, 40).map((s) => `Bearer\tpt_test_sk_${s}`).map(m('tab separator, unknown key')),
  );
}
