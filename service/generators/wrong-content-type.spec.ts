import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wrongContentType } from './wrong-content-type.ts';

describe('wrongContentType', () => {
  it('never yields application/json itself (any case, any parameters)', () => {
    fc.assert(
      fc.property(wrongContentType(), (c) => {
        expect(Object.keys(c).sort()).toEqual(['contentType', 'why']);
        if (c.contentType !== null) expect(c.contentType.split(';')[0]!.trim().toLowerCase()).not.toBe('application/json');
        expect(c.why.length).toBeGreaterThan(0);
      }),
    );
  });

  it('covers text/plain, form-urlencoded, multipart and no header', () => {
    const types = new Set(fc.sample(wrongContentType(), { seed: 59, numRuns: 300 }).map((c) => c.contentType));
    expect(types.has('text/plain')).toBe(true);
    expect(types.has('application/x-www-form-urlencoded')).toBe(true);
    expect([...types].some((t) => t?.startsWith('multipart/form-data'))).toBe(true);
    expect(types.has(null)).toBe(true);
  });

  it('yields the same values for the same seed', () => {
    expect(fc.sample(wrongContentType(), { seed: 42, numRuns: 20 })).toEqual(fc.sample(wrongContentType(), { seed: 42, numRuns: 20 }));
  });
});
