import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validAmount } from './valid-amount.ts';

const GRAMMAR = /^(0|[1-9][0-9]{0,16})(\.[0-9]{1,2})?$/;
const isZero = (v: string) => /^0+(\.0*)?$/.test(v);

describe('validAmount', () => {
  it('yields positive decimal strings with at most two decimals and at most 17 integer digits', () => {
    fc.assert(
      fc.property(validAmount(), (v) => {
        expect(v).toMatch(GRAMMAR);
        expect(isZero(v)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('reaches both ends: "0.01"-sized values and 17 integer digits with 2 decimals', () => {
    const values = fc.sample(validAmount(), { seed: 7, numRuns: 3000 });
    expect(values).toContain('0.01');
    expect(values.some((v) => /^[1-9][0-9]{16}\.[0-9]{2}$/.test(v))).toBe(true);
    expect(values.some((v) => /^0\.[0-9]+$/.test(v))).toBe(true);
    expect(values.some((v) => !v.includes('.'))).toBe(true);
    expect(values.some((v) => /\.[0-9]$/.test(v))).toBe(true);
    // integer lengths are spread over the range, not only short ones
    const lengths = new Set(values.map((v) => v.split('.')[0]!.length));
    expect(lengths.size).toBeGreaterThanOrEqual(15);
  });

  it('honours maxIntegerDigits and maxDecimals', () => {
    fc.assert(
      fc.property(validAmount({ maxIntegerDigits: 3, maxDecimals: 1 }), (v) => {
        expect(v).toMatch(/^(0|[1-9][0-9]{0,2})(\.[0-9])?$/);
        expect(isZero(v)).toBe(false);
      }),
    );
    fc.assert(
      fc.property(validAmount({ maxIntegerDigits: 1, maxDecimals: 0 }), (v) => {
        expect(v).toMatch(/^[1-9]$/);
      }),
    );
  });

  it('rejects constraints outside the spec range', () => {
    expect(() => validAmount({ maxIntegerDigits: 18 })).toThrow(RangeError);
    expect(() => validAmount({ maxIntegerDigits: 0 })).toThrow(RangeError);
  });

  it('yields the same values for the same seed', () => {
    const a = fc.sample(validAmount(), { seed: 42, numRuns: 20 });
    const b = fc.sample(validAmount(), { seed: 42, numRuns: 20 });
    expect(a).toEqual(b);
  });
});
