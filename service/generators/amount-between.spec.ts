import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountBetween, formatCents } from './amount-between.ts';

/** Cents of a decimal string, independently of the generator (digits, then at most two decimals). */
function cents(s: string): bigint {
  const [whole, frac = ''] = s.split('.');
  return BigInt(whole!) * 100n + BigInt((frac + '00').slice(0, 2));
}

describe('amountBetween', () => {
  it('yields amounts of at most two decimals whose value lies in [min, max]', () => {
    const range = fc.tuple(
      fc.bigInt({ min: 0n, max: 10n ** 15n }),
      fc.bigInt({ min: 0n, max: 10n ** 6n }),
    ).map(([lo, span]) => [lo, lo + span] as const);
    fc.assert(
      fc.property(range.chain(([lo, hi]) => amountBetween(lo, hi).map((a) => [lo, hi, a] as const)), ([lo, hi, a]) => {
        expect(a).toMatch(/^(0|[1-9][0-9]*)(\.[0-9]{1,2})?$/);
        expect(cents(a) >= lo && cents(a) <= hi).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('writes both forms: fixed (two decimals) and short (no trailing zero)', () => {
    const values = fc.sample(amountBetween(100n, 10_000n), { seed: 8, numRuns: 400 });
    expect(values.some((v) => /\.[0-9]{2}$/.test(v))).toBe(true);
    expect(values.some((v) => !v.includes('.') || /\.[0-9]$/.test(v))).toBe(true);
    expect(values.every((v) => !/\.[0-9]?0$/.test(v) || /\.[0-9]{2}$/.test(v))).toBe(true);
  });

  it('reaches both ends of a small range', () => {
    const values = new Set(fc.sample(amountBetween(1n, 3n), { seed: 1, numRuns: 200 }).map(cents));
    expect(values).toEqual(new Set([1n, 2n, 3n]));
  });

  it('formatCents writes 1250 cents as "12.50" or "12.5", 1200 as "12.00" or "12"', () => {
    expect([
      formatCents(1250n),
      formatCents(1250n, 'short'),
      formatCents(1200n),
      formatCents(1200n, 'short'),
      formatCents(5n, 'short'),
    ]).toEqual(['12.50', '12.5', '12.00', '12', '0.05']);
  });

  it('rejects an empty or negative range', () => {
    expect(() => amountBetween(5n, 4n)).toThrow(RangeError);
    expect(() => amountBetween(-1n, 4n)).toThrow(RangeError);
  });

  it('yields the same values for the same seed', () => {
    expect(fc.sample(
      amountBetween(1n, 10n ** 9n),
      { seed: 42, numRuns: 20 },
    )).toEqual(fc.sample(amountBetween(1n, 10n ** 9n), { seed: 42, numRuns: 20 }));
  });
});
