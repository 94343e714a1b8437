import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invalidAmount } from './invalid-amount.ts';

const GRAMMAR = /^(0|[1-9][0-9]{0,16})(\.[0-9]{1,2})?$/;
const isZero = (v: string) => /^-?0+(\.0*)?$/.test(v);

describe('invalidAmount', () => {
  it('yields strings the valid-amount grammar rejects, or zero, with CREATE-AMOUNT-INVALID / [invalid_amount]', () => {
    fc.assert(
      fc.property(invalidAmount(), (c) => {
        expect(typeof c.value).toBe('string');
        expect(!GRAMMAR.test(c.value) || isZero(c.value)).toBe(true);
        expect(c.breaks).toBe('CREATE-AMOUNT-INVALID');
        expect(c.codes).toEqual(['invalid_amount']);
        expect(c.why).toMatch(/^amount /);
        expect(c.why).not.toMatch(/\n/);
      }),
      { numRuns: 3000 },
    );
  });

  it('covers every family the brief names', () => {
    const values = fc.sample(invalidAmount(), { seed: 3, numRuns: 3000 }).map((c) => c.value);
    const has = (re: RegExp) => values.some((v) => re.test(v));
    expect(has(/^0+(\.0+)?$/)).toBe(true); // zero
    expect(has(/^-[0-9]/)).toBe(true); // negative
    expect(has(/^[0-9]+\.[0-9]{3,}$/)).toBe(true); // 3+ decimals
    expect(has(/^[0-9.]+[eE][+-]?[0-9]+$/)).toBe(true); // exponent
    expect(has(/^\+[0-9]/)).toBe(true); // sign
    expect(has(/^\s/)).toBe(true); // leading space
    expect(has(/\S\s+$/)).toBe(true); // trailing space
    expect(has(/[0-9.]\s+[0-9.]/)).toBe(true); // inner space
    expect(values).toContain(''); // empty
    expect(has(/[a-zA-Z$#%&*_]/)).toBe(true); // non-digits
    expect(has(/^[0-9]+,[0-9]{1,2}$/)).toBe(true); // "1,50"
    expect(values).toContain('NaN');
    expect(values).toContain('Infinity');
    expect(has(/^0[xX][0-9a-fA-F]+$/)).toBe(true); // hex
  });

  it('keeps 3+-decimal cases clearly invalid: some decimal past the second is not zero', () => {
    fc.assert(
      fc.property(invalidAmount(), (c) => {
        const m = /^[0-9]+\.([0-9]{3,})$/.exec(c.value);
        if (m) expect(/[1-9]/.test(m[1]!.slice(2))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('yields the same values for the same seed', () => {
    const a = fc.sample(invalidAmount(), { seed: 42, numRuns: 20 });
    const b = fc.sample(invalidAmount(), { seed: 42, numRuns: 20 });
    expect(a).toEqual(b);
  });
});
