/**
 * eventText: text that JSON serialisers disagree on, for create fields an event must carry byte for
 * byte. The signature covers "the exact raw body bytes received (never re-serialised JSON)"
 * (Signature 1) and data.object echoes what the merchant sent; non-ASCII (escaped as \uXXXX by some,
 * sent as UTF-8 by others), U+2028/U+2029, quotes, backslashes, "/" and HTML-sensitive characters
 * are where a sender that signs one serialisation and sends another shows.
 *
 *   eventText = 1*max( %x20-7E / special )
 *   special   = Bengali letters and signs / "৳" / "€" / "é" / "ß" / "中" / "😀" / "👍🏽" / NBSP / U+2028 / U+2029
 *               / DQUOTE / "\" / "/" / "<" / ">" / "&" / "'"
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';

/** The characters (and grapheme clusters) serialisers disagree on. */
export const EVENT_TEXT_SPECIALS = [
  'ক', 'খ', 'গ', 'া', 'ি', '্', '৳', '€', 'é', 'ß', '中', '😀', '👍🏽', '\u00a0', '\u2028', '\u2029', '"', '\\', '/', '<', '>', '&', "'",
] as const;

export interface EventTextConstraints {
  /** Most units (an ASCII character or one special) in a value. @defaultValue 40 */
  maxLength?: number;
}

const ASCII = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));
const SPECIAL = fc.constantFrom(...EVENT_TEXT_SPECIALS);

/** 1..maxLength units mixing printable ASCII (weight 2) with the specials (weight 3). */
export function eventText(constraints: EventTextConstraints = {}): Arbitrary<string> {
  const maxLength = constraints.maxLength ?? 40;
  if (!Number.isInteger(maxLength) || maxLength < 1) throw new RangeError(`maxLength must be a positive integer, got ${maxLength}`);
  return fc.string({ unit: fc.oneof({ weight: 2, arbitrary: ASCII }, { weight: 3, arbitrary: SPECIAL }), minLength: 1, maxLength });
}
