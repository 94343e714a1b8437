/**
 * unknownKey: well-formed keys the service never issued (spec, Authentication: "unknown … key: 401
 * invalid_api_key"): random keys of both prefixes, and near misses of the issued ones.
 *
 *   unknown = ("pt_test_sk_" / "pt_live_sk_") 8*48ALNUM / "pt_test_sk_" 200*1024ALNUM
 *           / an issued key with one character changed / truncated / extended / case-swapped
 *           / under the other environment's prefix
 *
 * Never one of `issued` (filtered out).
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { alnum, alnumChar, printedAs, splitKey, type BadCredential, type CredentialConstraints } from './internal/credentials.ts';

/**
 * Well-formed keys the service never issued: random keys of both prefixes, and near misses of the
 * issued ones (one character changed, truncated, extended, case-swapped, the other environment's
 * prefix). `issued` are every key of the profile (filtered out); `bases` the keys mutated.
 */
export function unknownKey(
  bases: readonly string[],
  issued: readonly string[],
  constraints: CredentialConstraints = {},
): Arbitrary<BadCredential> {
  const known = new Set(issued);
  const u = (family: string) => (key: string): BadCredential => printedAs({ family, kind: 'unknown', key }, constraints.print);
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
        return u('case ' +
          'swapped')(`${prefix}${[...secret].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('')}`);
      }),
      base.map((k) => {
        const { prefix, secret } = splitKey(k);
        return u('other environment prefix')(`${prefix === 'pt_live_sk_' ? 'pt_test_sk_' : 'pt_live_sk_'}${secret}`);
      }),
      alnum(200, 1024).map((s) => u('long random key')(`pt_test_sk_${s}`)),
    )
    .filter((c) => !known.has(c.key!));
}
