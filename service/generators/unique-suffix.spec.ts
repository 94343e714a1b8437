import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { uniqueSuffix } from './unique-suffix.ts';

describe('uniqueSuffix', () => {
  it('yields 20 alphanumeric characters', () => {
    fc.assert(
      fc.property(uniqueSuffix(), (s) => {
        expect(s).toMatch(/^[A-Za-z0-9]{20}$/);
      }),
    );
  });

  it('does not repeat across many draws, inside one property run as across samples', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(uniqueSuffix(), uniqueSuffix(), (a, b) => {
        expect(a).not.toBe(b);
        expect(seen.has(a)).toBe(false);
        seen.add(a);
      }),
      { numRuns: 5000 },
    );
    const sample = fc.sample(uniqueSuffix(), { seed: 61, numRuns: 10_000 });
    expect(new Set(sample).size).toBe(sample.length);
  });

  it('honours length', () => {
    fc.assert(fc.property(uniqueSuffix({ length: 32 }), (s) => s.length === 32));
    expect(() => uniqueSuffix({ length: 8 })).toThrow(RangeError);
  });

  it('yields the same values for the same seed', () => {
    expect(fc.sample(uniqueSuffix(), { seed: 42, numRuns: 20 })).toEqual(fc.sample(uniqueSuffix(), { seed: 42, numRuns: 20 }));
  });
});
