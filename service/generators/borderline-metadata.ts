/**
 * borderlineMetadata: metadata whose acceptance the spec leaves open (DESIGN oracle principle 2:
 * "a 65-character key made of emoji" is observed, not asserted).
 *
 * The limits (64-character keys, 500-character values) do not say what a character is: a code
 * point, a UTF-16 code unit (JavaScript's `length`), a UTF-8 byte or a grapheme. Nor do they say
 * whether an empty or blank key is a key. Each value is one entry:
 *
 *   emoji key        33, 64 or 65 emoji (U+1F600..U+1F64F: 1 code point, 2 UTF-16 units, 4 bytes each)
 *   combining key    64 graphemes of "e" + U+0301 (128 code points)
 *   Bengali key      64 Bengali letters (64 code points, 192 UTF-8 bytes)
 *   odd key          "", " ", " padded ", "a\u0000b", "line\nbreak", "__proto__", "constructor"
 *   emoji value      250 emoji (500 UTF-16 units) or 500 emoji
 *   Bengali value    500 Bengali letters (1500 UTF-8 bytes)
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import type { BorderlineCase } from './invalid-case.ts';
import { show } from './internal/charsets.ts';
import { entriesToObject } from './internal/entries.ts';

function emojiString(length: number): Arbitrary<string> {
  return fc
    .array(fc.integer({ min: 0x1f600, max: 0x1f64f }), { minLength: length, maxLength: length })
    .map((cps) => String.fromCodePoint(...cps));
}

function bengaliString(length: number): Arbitrary<string> {
  // Bengali letters KA..HA (U+0995..U+09B9), all assigned and each a single code point
  const letters = [...'কখগঘঙচছজঝঞটঠডঢণতথদধনপফবভমযরলশষসহ'];
  return fc.array(fc.constantFrom(...letters), { minLength: length, maxLength: length }).map((l) => l.join(''));
}

function one(k: string, v: string, why: string): BorderlineCase<Record<string, string>> {
  return { value: entriesToObject([[k, v]]), why: `metadata ${why}` };
}

/** Metadata entries whose acceptance depends on what the target counts as a character or a key. */
export function borderlineMetadata(): Arbitrary<BorderlineCase<Record<string, string>>> {
  const emojiKey = fc
    .constantFrom(33, 64, 65)
    .chain((n) => emojiString(n).map((k) => one(
      k,
      'v',
      `key is ${n} emoji (${n} code points, ${2 * n} UTF-16 units, ${4 * n} UTF-8 bytes)`,
    )));
  const combiningKey = fc.constant(one('e\u0301'.repeat(64), 'v', 'key is 64 graphemes of e + combining acute (128 code points)'));
  const bengaliKey = bengaliString(64).map((k) => one(k, 'v', 'key is 64 Bengali letters (192 UTF-8 bytes)'));
  const oddKey = fc
    .constantFrom('', ' ', ' padded ', 'a\u0000b', 'line\nbreak', '__proto__', 'constructor')
    .map((k) => one(
      k,
      'v',
      `key is ${show(k)} (${k === '' ? 'empty' : k.trim() === '' ? 'blank' : /^[\x21-\x7e]+$/.test(k) ? 'a name JavaScript objects ' +
        'treat specially' : 'spaces or control characters'})`,
    ));
  const emojiValue = fc
    .constantFrom(250, 500)
    .chain((n) => emojiString(n).map((v) => one(
      'k',
      v,
      `value is ${n} emoji (${n} code points, ${2 * n} UTF-16 units, ${4 * n} UTF-8 bytes)`,
    )));
  const bengaliValue = bengaliString(500).map((v) => one('k', v, 'value is 500 Bengali letters (1500 UTF-8 bytes)'));
  return fc.oneof(emojiKey, combiningKey, bengaliKey, oddKey, emojiValue, bengaliValue);
}
