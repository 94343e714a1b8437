/**
 * longString: strings of a chosen length range, for probing the unstated maximum lengths of
 * description, merchant_reference and external_id (spec, Limits: "Maximum lengths of description,
 * merchant_reference and external_id: not shown"). The suite finds each maximum by bisection and only
 * observes it; an exact length N is `longString({ minLength: N, maxLength: N })`.
 *
 *   printable = visible *( %x20-7E ) visible / visible     ; mixed ASCII, no leading/trailing space
 *   id        = 1*( ALPHA / DIGIT / "_" / "-" )           ; the characters external_id surely allows
 *
 * A value is a random chunk of 16..64 characters repeated and cut to the drawn length, so lengths in
 * the hundreds of thousands cost no more than building the string. ASCII only: a length is the same
 * in characters, code points, UTF-16 units and UTF-8 bytes.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { idString, printableAscii, repeatToLength } from './internal/charsets.ts';

export interface LongStringConstraints {
  /** Shortest length (>= 1). @defaultValue 1 */
  minLength?: number;
  /** Longest length (>= minLength). @defaultValue 1000 */
  maxLength?: number;
  /** `printable`: mixed printable ASCII; `id`: `[A-Za-z0-9_-]` only (for external_id). @defaultValue 'printable' */
  charset?: 'printable' | 'id';
}

/** ASCII strings whose length is drawn over [minLength, maxLength]. */
export function longString(constraints: LongStringConstraints = {}): Arbitrary<string> {
  const minLength = constraints.minLength ?? 1;
  const maxLength = constraints.maxLength ?? Math.max(1000, minLength);
  const charset = constraints.charset ?? 'printable';
  if (!Number.isSafeInteger(minLength) || minLength < 1) throw new RangeError(`minLength must be >= 1, got ${minLength}`);
  if (!Number.isSafeInteger(maxLength) || maxLength < minLength) {
    throw new RangeError(`maxLength must be >= minLength (${minLength}), got ${maxLength}`);
  }
  const chunk =
    charset === 'id'
      ? idString(16, 64)
      : printableAscii(16, 64, true).map((c) => (c.trim() === '' ? `x${c}y` : c));
  return fc.tuple(fc.integer({ min: minLength, max: maxLength }), chunk).map(([length, c]) => {
    const s = repeatToLength(c, length);
    if (charset === 'id') return s;
    // no leading or trailing space, so a target that trims sees the same length
    const first = s[0] === ' ' ? 'x' : s[0]!;
    const last = s.length > 1 && s[s.length - 1] === ' ' ? 'y' : s.slice(1).slice(-1);
    return s.length === 1 ? first : `${first}${s.slice(1, -1)}${last}`;
  });
}
