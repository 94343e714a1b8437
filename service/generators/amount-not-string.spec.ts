import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountNotString } from './amount-not-string.ts';

describe('amountNotString', () => {
  it('yields JSON values that are not strings, with CREATE-AMOUNT-NOT-STRING / [invalid_amount, invalid_request]', () => {
    fc.assert(
      fc.property(amountNotString(), (c) => {
        expect(typeof c.value).not.toBe('string');
        // survives a JSON round trip unchanged (a request body can carry it)
        expect(JSON.parse(JSON.stringify({ amount: c.value })).amount).toEqual(c.value);
        expect(c.breaks).toBe('CREATE-AMOUNT-NOT-STRING');
        expect(c.codes).toEqual(['invalid_amount', 'invalid_request']);
        expect(c.why).toMatch(/^amount .*not a decimal string$/);
      }),
      { numRuns: 1000 },
    );
  });

  it('covers integers, fractions, huge numbers, booleans, null, arrays and objects', () => {
    const values = fc.sample(amountNotString(), { seed: 5, numRuns: 1000 }).map((c) => c.value);
    expect(values.some((v) => Number.isInteger(v))).toBe(true);
    expect(values.some((v) => typeof v === 'number' && !Number.isInteger(v))).toBe(true);
    expect(values).toContain(1e21);
    expect(values.some((v) => typeof v === 'boolean')).toBe(true);
    expect(values).toContain(null);
    expect(values.some((v) => Array.isArray(v))).toBe(true);
    expect(values.some((v) => v !== null && typeof v === 'object' && !Array.isArray(v))).toBe(true);
  });

  it('yields the same values for the same seed', () => {
    const a = fc.sample(amountNotString(), { seed: 42, numRuns: 20 });
    const b = fc.sample(amountNotString(), { seed: 42, numRuns: 20 });
    expect(a).toEqual(b);
  });
});
