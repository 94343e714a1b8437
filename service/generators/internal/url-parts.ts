/**
 * URL pieces shared by the return_url generators. Not part of the public surface.
 *
 * Grammar (a conservative subset of RFC 3986 that every URL parser reads the same way):
 *
 *   host      = 1*3( label "." ) tld
 *   label     = alnum [ *8( alnum / "-" ) alnum ]        ; lowercase, no "--" (no IDNA A-labels)
 *   tld       = 2*6( %x61-7A )
 *   port      = 1024..65535                              ; never the default 443, so nothing normalises away
 *   path      = *4( "/" segment )
 *   segment   = 1*12( ALPHA / DIGIT / "-" / "_" / "~" )
 *   query     = param *3( "&" param ) ; param = 1*10( %x61-7A / DIGIT / "_" ) "=" *16( ALPHA / DIGIT / "-" / "_" / "." / "~" )
 *   fragment  = 1*16( ALPHA / DIGIT / "-" / "_" )
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { ALNUM, DIGITS, LOWER, charFrom, stringOf } from './charsets.ts';

/** Schemes the spec always rejects (CreatePaymentRequest.return_url). */
export const FORBIDDEN_SCHEMES = ['javascript', 'data', 'file', 'intent'] as const;

/**
 * Well-known schemes that are neither https nor a native app's own scheme. A valid deep link never
 * uses one; those that are not forbidden nor http are borderline (borderlineReturnUrl).
 */
export const NON_APP_SCHEMES: readonly string[] = [
  ...FORBIDDEN_SCHEMES,
  'http', 'https', 'ftp', 'ftps', 'sftp', 'ws', 'wss', 'vbscript', 'blob', 'about', 'mailto', 'tel', 'sms',
  'view-source', 'filesystem', 'chrome', 'jar', 'ssh', 'git', 'ldap', 'irc', 'news', 'nntp', 'telnet', 'gopher',
  'urn', 'content', 'market', 'android-app', 'resource', 'moz-extension', 'chrome-extension',
];

const label: Arbitrary<string> = fc
  .oneof(
    charFrom(LOWER + DIGITS),
    fc
      .tuple(charFrom(LOWER + DIGITS), stringOf(`${LOWER}${DIGITS}-`, 0, 8), charFrom(LOWER + DIGITS))
      .map(([a, mid, b]) => `${a}${mid}${b}`),
  )
  .filter((l) => !l.includes('--'));

/** A lowercase DNS host name with a letters-only top-level label: `pay.example.com`. */
export const hostName: Arbitrary<string> = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 3 }), stringOf(LOWER, 2, 6))
  .map(([labels, tld]) => `${labels.join('.')}.${tld}`);

export const port: Arbitrary<string> = fc.integer({ min: 1024, max: 65535 }).map((p) => `:${p}`);

const segment = stringOf(`${ALNUM}-_~`, 1, 12);
export const path: Arbitrary<string> = fc
  .array(segment, { minLength: 0, maxLength: 4 })
  .map((segments) => segments.map((s) => `/${s}`).join(''));

const param = fc
  .tuple(stringOf(`${LOWER}${DIGITS}_`, 1, 10), stringOf(`${ALNUM}-_.~`, 0, 16))
  .map(([k, v]) => `${k}=${v}`);
export const query: Arbitrary<string> = fc
  .array(param, { minLength: 1, maxLength: 4 })
  .map((params) => `?${params.join('&')}`);

export const fragment: Arbitrary<string> = stringOf(`${ALNUM}-_`, 1, 16).map((f) => `#${f}`);

/** `host [port] path [query] [fragment]` after `scheme://`. */
export function hierarchicalUrl(
  scheme: Arbitrary<string>,
  host: Arbitrary<string> = hostName,
  withPort = true,
): Arbitrary<string> {
  return fc
    .tuple(
      scheme,
      host,
      withPort ? fc.option(port, { freq: 4 }) : fc.constant(null),
      path,
      fc.option(query),
      fc.option(fragment, { freq: 3 }),
    )
    .map(([s, h, p, pa, q, f]) => `${s}://${h}${p ?? ''}${pa}${q ?? ''}${f ?? ''}`);
}

/**
 * A native app's own scheme, lowercase, 3..32 characters, not a well-known scheme:
 *
 *   app-scheme = %x61-7A 2*15( %x61-7A / DIGIT )                                   ; myapp, shop24
 *              / word 1*3( "." word )                                             ; com.example.shop
 *              / word "-" word                                                     ; my-shop
 *   word       = %x61-7A 1*10( %x61-7A / DIGIT )
 */
export const appScheme: Arbitrary<string> = (() => {
  const word = fc.tuple(charFrom(LOWER), stringOf(LOWER + DIGITS, 1, 10)).map(([a, b]) => `${a}${b}`);
  return fc
    .oneof(
      { weight: 4, arbitrary: fc.tuple(charFrom(LOWER), stringOf(LOWER + DIGITS, 2, 15)).map(([a, b]) => `${a}${b}`) },
      { weight: 2, arbitrary: fc.array(word, { minLength: 2, maxLength: 4 }).map((w) => w.join('.')) },
      { weight: 1, arbitrary: fc.tuple(word, word).map(([a, b]) => `${a}-${b}`) },
      { weight: 2, arbitrary: fc.constantFrom('myapp', 'com.example.shop', 'bkashshop', 'merchant-app') },
    )
    .filter((s) => s.length <= 32 && !NON_APP_SCHEMES.includes(s));
})();
