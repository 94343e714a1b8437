import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { otherVersionPrefix } from './other-version-prefix.ts';

describe('otherVersionPrefix', () => {
  it('yields /v<n> or /V<n> prefixes, never /v1 itself', () => {
    fc.assert(
      fc.property(otherVersionPrefix(), (p) => {
        expect(p).toMatch(/^\/[vV][0-9]{1,2}$/);
        expect(p).not.toBe('/v1');
      }),
      { numRuns: 1000 },
    );
  });

  it('reaches /v0, another case (/V1) and two-digit versions', () => {
    const values = fc.sample(otherVersionPrefix(), { seed: 4, numRuns: 500 });
    expect(values).toContain('/v0');
    expect(values).toContain('/V1');
    expect(values.some((v) => /^\/v[0-9]{2}$/.test(v))).toBe(true);
  });

  it('yields the same values for the same seed', () => {
    expect(fc.sample(otherVersionPrefix(), { seed: 42, numRuns: 20 })).toEqual(fc.sample(otherVersionPrefix(), { seed: 42, numRuns: 20 }));
  });
});
