import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { borderlineAmount } from './borderline-amount.ts';

const GRAMMAR = /^(0|[1-9][0-9]{0,16})(\.[0-9]{1,2})?$/;

describe('borderlineAmount', () => {
  it('yields strings outside the clearly valid grammar that a lenient decimal reading still finds positive', () => {
    fc.assert(
      fc.property(borderlineAmount(), (c) => {
        expect(Object.keys(c).sort()).toEqual(['value', 'why']);
        expect(GRAMMAR.test(c.value)).toBe(false);
        // after mapping Unicode decimal digits to ASCII, it is a positive decimal number
        const ascii = c.value.replace(/\p{Nd}/gu, (d) => {
          const cp = d.codePointAt(0)!;
          for (const zero of [0x30, 0x9e6, 0x660, 0x966, 0xff10]) if (cp >= zero && cp <= zero + 9) return String(cp - zero);
          return d;
        });
        expect(ascii).toMatch(/^([0-9]+\.?[0-9]*|\.[0-9]+)$/);
        expect(Number(ascii)).toBeGreaterThan(0);
        expect(c.why).toMatch(/^amount /);
      }),
      { numRuns: 2000 },
    );
  });

  it('covers leading zeros, bare points, 18+ integer digits and Unicode digits', () => {
    const values = fc.sample(borderlineAmount(), { seed: 9, numRuns: 1000 }).map((c) => c.value);
    expect(values).toContain('007');
    expect(values).toContain('1.');
    expect(values).toContain('.5');
    expect(values.some((v) => /^[0-9]{18,}/.test(v))).toBe(true);
    expect(values.some((v) => /[০-৯]/.test(v))).toBe(true);
  });

  it('yields the same values for the same seed', () => {
    const a = fc.sample(borderlineAmount(), { seed: 42, numRuns: 20 });
    const b = fc.sample(borderlineAmount(), { seed: 42, numRuns: 20 });
    expect(a).toEqual(b);
  });
});
