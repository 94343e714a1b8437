import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { malformedDateFilter } from './malformed-date-filter.ts';

// RFC 3339 §5.6 date-time, with each field's range (months 01-12, days 01-31, hours 00-23 …).
const RFC3339 = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt](?:[01]\d|2[0-3]):[0-5]\d:(?:[0-5]\d|60)(?:\.\d+)?(?:[Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

describe('malformedDateFilter', () => {
  it('never yields an RFC 3339 date-time, nor a date alone or a number (borderline forms are not generated)', () => {
    fc.assert(
      fc.property(malformedDateFilter(), (v) => {
        expect(RFC3339.test(v), v).toBe(false);
        expect(v).not.toMatch(/^\d{4}-\d{2}-\d{2}$|^\d+$/);
      }),
      { numRuns: 3000 },
    );
  });

  it('the RFC 3339 check above can fail', () => {
    expect(RFC3339.test('2025-12-28T00:00:00Z')).toBe(true);
  });

  it('reaches words and months past 12', () => {
    const values = fc.sample(malformedDateFilter(), { seed: 3, numRuns: 300 });
    expect(values.some((v) => /^[a-z]+$/.test(v))).toBe(true);
    expect(values.some((v) => /^2025-(1[3-9]|[2-9]\d)-/.test(v))).toBe(true);
  });

  it('yields the same values for the same seed', () => {
    expect(fc.sample(
      malformedDateFilter(),
      { seed: 42, numRuns: 20 },
    )).toEqual(fc.sample(malformedDateFilter(), { seed: 42, numRuns: 20 }));
  });
});
