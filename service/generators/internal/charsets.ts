/**
 * Small character-level arbitraries shared by the generators. Not part of the public surface.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { EXTERNAL_ID_CHARS } from '../create-payment-request.ts';

export const DIGITS = '0123456789';
export const LOWER = 'abcdefghijklmnopqrstuvwxyz';
export const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const ALNUM = `${UPPER}${LOWER}${DIGITS}`;

/** One character out of `chars`. */
export function charFrom(chars: string): Arbitrary<string> {
  return fc.constantFrom(...chars.split(''));
}

/**
 * A string of `minLength`..`maxLength` characters out of `chars`. Lengths are drawn over the whole
 * range (`size: 'max'`), not only the small lengths fast-check prefers by default.
 */
export function stringOf(chars: string, minLength: number, maxLength: number): Arbitrary<string> {
  return fc.string({ unit: charFrom(chars), minLength, maxLength, size: 'max' });
}

/** A string of exactly `length` characters out of `chars`. */
export function fixedStringOf(chars: string, length: number): Arbitrary<string> {
  return fc.string({ unit: charFrom(chars), minLength: length, maxLength: length });
}

/** `0`..`max` printable ASCII characters (U+0020..U+007E). */
export function printableAscii(minLength: number, maxLength: number, fullRange = false): Arbitrary<string> {
  return fc.string({ unit: 'grapheme-ascii', minLength, maxLength, ...(fullRange ? { size: 'max' as const } : {}) });
}

/** A printable ASCII character other than space (U+0021..U+007E). */
export const visibleAsciiChar: Arbitrary<string> = fc
  .integer({ min: 0x21, max: 0x7e })
  .map((code) => String.fromCharCode(code));

/**
 * Printable ASCII of `minLength`..`maxLength` (minLength >= 1) characters whose first and last
 * characters are not spaces, so a target that trims has nothing to trim.
 *
 *   trimmed = visible / visible *printable visible
 */
export function trimmedPrintableAscii(minLength: number, maxLength: number, fullRange = false): Arbitrary<string> {
  if (minLength < 1 || maxLength < minLength) throw new RangeError(`bad length range ${minLength}..${maxLength}`);
  const several =
    maxLength >= 2
      ? fc
          .tuple(visibleAsciiChar, printableAscii(Math.max(0, minLength - 2), maxLength - 2, fullRange), visibleAsciiChar)
          .map(([a, mid, b]) => `${a}${mid}${b}`)
      : undefined;
  if (minLength >= 2 && several) return several;
  return several ? fc.oneof(visibleAsciiChar, several) : visibleAsciiChar;
}

/** `minLength`..`maxLength` characters of `[A-Za-z0-9_-]`. */
export function idString(minLength: number, maxLength: number): Arbitrary<string> {
  return stringOf(EXTERNAL_ID_CHARS, minLength, maxLength);
}

/** `chunk` repeated and cut to exactly `length` characters (chunk must not be empty). */
export function repeatToLength(chunk: string, length: number): string {
  if (chunk.length === 0) throw new RangeError('empty chunk');
  return chunk.repeat(Math.ceil(length / chunk.length)).slice(0, length);
}

/** `JSON.stringify` for a one-line `why`, shortened past `max` characters. */
export function show(value: unknown, max = 60): string {
  let text: string;
  if (value === undefined) text = 'undefined';
  else if (typeof value === 'number' && Object.is(value, -0)) text = '-0';
  else text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}
