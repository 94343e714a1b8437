import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { longString } from './long-string.ts';

describe('longString', () => {
  it('yields printable ASCII of a length within the range, with no leading or trailing space', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 0, max: 3000 }), fc.integer(), (min, extra, seed) => {
        const [s] = fc.sample(longString({ minLength: min, maxLength: min + extra }), { seed, numRuns: 1 });
        expect(s!.length).toBeGreaterThanOrEqual(min);
        expect(s!.length).toBeLessThanOrEqual(min + extra);
        expect(s).toMatch(/^[\x20-\x7e]+$/);
        expect(s!.trim()).toBe(s);
      }),
      { numRuns: 200 },
    );
  });

  it('yields exactly N characters when minLength = maxLength = N, even for large N', () => {
    for (const n of [1, 2, 64, 65, 255, 256, 1024, 100_000]) {
      for (const s of fc.sample(longString({ minLength: n, maxLength: n }), { seed: n, numRuns: 5 })) expect(s.length).toBe(n);
    }
  });

  it('mixes character classes and, with charset id, uses [A-Za-z0-9_-] only', () => {
    const values = fc.sample(longString({ minLength: 200, maxLength: 400 }), { seed: 43, numRuns: 50 });
    expect(values.some((s) => /[a-z]/.test(s) && /[A-Z]/.test(s) && /[0-9]/.test(s) && /[^A-Za-z0-9]/.test(s))).toBe(true);
    fc.assert(
      fc.property(longString({ minLength: 1, maxLength: 300, charset: 'id' }), (s) => {
        expect(s).toMatch(/^[A-Za-z0-9_-]{1,300}$/);
      }),
    );
  });

  it('rejects bad ranges', () => {
    expect(() => longString({ minLength: 0 })).toThrow(RangeError);
    expect(() => longString({ minLength: 10, maxLength: 5 })).toThrow(RangeError);
  });

  it('yields the same values for the same seed', () => {
    const a = fc.sample(longString({ maxLength: 5000 }), { seed: 42, numRuns: 20 });
    const b = fc.sample(longString({ maxLength: 5000 }), { seed: 42, numRuns: 20 });
    expect(a).toEqual(b);
  });
});
