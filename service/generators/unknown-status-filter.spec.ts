import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PAYMENT_STATUSES } from '../../catalogue/schemas/index.ts';
import { unknownStatusFilter } from './unknown-status-filter.ts';

describe('unknownStatusFilter', () => {
  it('never yields a PaymentStatus, in any letter case', () => {
    const known = new Set(PAYMENT_STATUSES.map((s) => s.toLowerCase()));
    fc.assert(fc.property(unknownStatusFilter(), (s) => !known.has(s.trim().toLowerCase())), { numRuns: 3000 });
  });

  it('yields plain tokens (no space, no comma) of both forms', () => {
    const values = fc.sample(unknownStatusFilter(), { seed: 4, numRuns: 500 });
    for (const v of values) expect(v).toMatch(/^(NO_SUCH_STATUS_[A-Z0-9]{1,8}|[0-9]{1,6})$/);
    expect(values.some((v) => v.startsWith('NO_SUCH_STATUS_'))).toBe(true);
    expect(values.some((v) => /^[0-9]+$/.test(v))).toBe(true);
  });

  it('yields the same values for the same seed', () => {
    expect(fc.sample(
      unknownStatusFilter(),
      { seed: 42, numRuns: 20 },
    )).toEqual(fc.sample(unknownStatusFilter(), { seed: 42, numRuns: 20 }));
  });
});
