import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EVENT_TEXT_SPECIALS, eventText } from './event-text.ts';

const SPECIALS: readonly string[] = EVENT_TEXT_SPECIALS;

/** Splits a value back into its units: one printable ASCII character or one special. */
function unitsOf(s: string): string[] | null {
  const units: string[] = [];
  let rest = s;
  while (rest.length) {
    const special = SPECIALS.filter((u) => rest.startsWith(u)).sort((a, b) => b.length - a.length)[0];
    const unit = special ?? (/^[\x20-\x7e]/.test(rest) ? rest[0]! : null);
    if (unit === null) return null;
    units.push(unit);
    rest = rest.slice(unit.length);
  }
  return units;
}

describe('eventText', () => {
  it('yields 1..maxLength units, each printable ASCII or one of the specials', () => {
    fc.assert(
      fc.property(fc.integer({
        min: 1,
        max: 60,
      }).chain((max) => eventText({ maxLength: max }).map((s) => [max, s] as const)), ([max, s]) => {
        const units = unitsOf(s);
        expect(units, JSON.stringify(s)).not.toBeNull();
        expect(units!.length).toBeGreaterThanOrEqual(1);
        expect(units!.length).toBeLessThanOrEqual(max);
      }),
      { numRuns: 1000 },
    );
  });

  it('reaches the characters serialisers disagree on: non-ASCII, astral, U+2028/U+2029, quote, backslash, HTML-sensitive', () => {
    const text = fc.sample(eventText(), { seed: 9, numRuns: 400 }).join('');
    for (const c of ['\u2028', '\u2029', '"', '\\', '<', '&', '😀', '৳']) expect(text, JSON.stringify(c)).toContain(c);
    expect(/[\x20-\x7e]/.test(text)).toBe(true);
  });

  it('rejects a maxLength below 1', () => {
    expect(() => eventText({ maxLength: 0 })).toThrow(RangeError);
  });

  it('yields the same values for the same seed', () => {
    expect(fc.sample(eventText(), { seed: 42, numRuns: 20 })).toEqual(fc.sample(eventText(), { seed: 42, numRuns: 20 }));
  });
});
