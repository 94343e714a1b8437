import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { badLimit } from './bad-limit.ts';

const withinBounds = (v: string) => /^[0-9]+$/.test(v) && Number(v) >= 1 && Number(v) <= 100;

describe('badLimit', () => {
  it('never yields an integer of 1..100 (in any spelling a lenient parser might read as one)', () => {
    fc.assert(
      fc.property(badLimit(), (v) => {
        expect(withinBounds(v), v).toBe(false);
        expect(withinBounds(v.replace(/^\+|^0+(?=\d)/g, '')), v).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it('reaches each class: above 100, 0 and below, a fraction, letters', () => {
    const values = fc.sample(badLimit(), { seed: 10, numRuns: 400 });
    expect(values.some((v) => /^[0-9]+$/.test(v) && Number(v) > 100)).toBe(true);
    expect(values.some((v) => /^-?[0-9]+$/.test(v) && Number(v) <= 0)).toBe(true);
    expect(values.some((v) => /^[0-9]+\.[0-9]$/.test(v))).toBe(true);
    expect(values.some((v) => /^[a-z]+$/.test(v))).toBe(true);
  });

  it('yields the same values for the same seed', () => {
    expect(fc.sample(badLimit(), { seed: 42, numRuns: 20 })).toEqual(fc.sample(badLimit(), { seed: 42, numRuns: 20 }));
  });
});
