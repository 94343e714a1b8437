import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invalidAllowedMethods } from './invalid-allowed-methods.ts';

const MEMBERS: readonly unknown[] = ['BKASH', 'NAGAD'];

describe('invalidAllowedMethods', () => {
  it('yields values naming something other than a member, with [invalid_allowed_method] for string arrays and [invalid_request, ' +
    'invalid_allowed_method] otherwise', () => {
    fc.assert(
      fc.property(invalidAllowedMethods(), (c) => {
        expect(c.breaks).toBe('CREATE-ALLOWED-METHODS-INVALID');
        expect(c.value).not.toBeNull();
        expect(JSON.parse(JSON.stringify(c.value))).toEqual(c.value);
        expect(c.why).toMatch(/^allowed_methods /);
        if (Array.isArray(c.value) && c.value.every((e) => typeof e === 'string')) {
          expect(c.value.some((e) => !MEMBERS.includes(e))).toBe(true);
          expect(new Set(c.value).size).toBe(c.value.length); // no repeats: repetition is not the violation
          expect(c.codes).toEqual(['invalid_allowed_method']);
        } else {
          if (Array.isArray(c.value)) expect(c.value.some((e) => typeof e !== 'string')).toBe(true);
          expect(c.codes).toEqual(['invalid_request', 'invalid_allowed_method']);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('covers lowercase members, unknown values, wrong element types and non-arrays', () => {
    const values = fc.sample(invalidAllowedMethods(), { seed: 31, numRuns: 1000 }).map((c) => c.value);
    expect(values.some((v) => Array.isArray(v) && v.includes('bkash'))).toBe(true);
    expect(values.some((v) => Array.isArray(v) && v.some((e) => typeof e === 'string' && /^[A-Z_-]+$/.test(e) && !MEMBERS.includes(e)))).toBe(true);
    expect(values.some((v) => Array.isArray(v) && v.some((e) => typeof e !== 'string'))).toBe(true);
    expect(values).toContain(MEMBERS[0]);
    expect(values.some((v) => v !== null && typeof v === 'object' && !Array.isArray(v))).toBe(true);
  });

  it('yields the same values for the same seed', () => {
    const a = fc.sample(invalidAllowedMethods(), { seed: 42, numRuns: 20 });
    const b = fc.sample(invalidAllowedMethods(), { seed: 42, numRuns: 20 });
    expect(a).toEqual(b);
  });
});
