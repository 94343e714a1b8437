import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idempotencyKeySuffix } from './idempotency-key-suffix.ts';

describe('idempotencyKeySuffix', () => {
  it('yields 1..32 visible ASCII characters a header carries as is (no space, no control, no comma)', () => {
    fc.assert(
      fc.property(idempotencyKeySuffix(), (s) => {
        expect(s).toMatch(/^[A-Za-z0-9\-_.:~+=/]{1,32}$/);
      }),
      { numRuns: 2000 },
    );
  });

  // fast-check's default size keeps lengths short (about 12 at most); 32 is the bound, not a target.
  it('reaches length 1, lengths of 10 and more, and the punctuation', () => {
    const values = fc.sample(idempotencyKeySuffix(), { seed: 3, numRuns: 3000 });
    expect(values.some((v) => v.length === 1)).toBe(true);
    expect(values.some((v) => v.length >= 10)).toBe(true);
    expect(values.some((v) => /[\-_.:~+=/]/.test(v))).toBe(true);
  });

  it('yields the same values for the same seed', () => {
    expect(fc.sample(
      idempotencyKeySuffix(),
      { seed: 42, numRuns: 20 },
    )).toEqual(fc.sample(idempotencyKeySuffix(), { seed: 42, numRuns: 20 }));
  });
});
