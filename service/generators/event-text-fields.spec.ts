import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventTextFields } from './event-text-fields.ts';

describe('eventTextFields', () => {
  it('yields a valid amount, text in every text field and at most 3 metadata keys of the k_ form', () => {
    fc.assert(
      fc.property(eventTextFields(), (f) => {
        expect(f.amount).toMatch(/^(0|[1-9][0-9]{0,16})(\.[0-9]{1,2})?$/);
        expect(f.description.length).toBeGreaterThan(0);
        if (f.merchant_reference !== undefined) expect(f.merchant_reference.length).toBeGreaterThan(0);
        expect(Object.keys(f.metadata).length).toBeLessThanOrEqual(3);
        for (const [k, v] of Object.entries(f.metadata)) {
          expect(k).toMatch(/^k_[a-z0-9_]{1,20}$/);
          expect(v.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('never yields a metadata key of the suite’s own markers', () => {
    fc.assert(fc.property(eventTextFields(), (f) => !('conformance_run' in f.metadata) && !('sink' in f.metadata)), { numRuns: 500 });
  });

  it('carries non-ASCII text in the fields and sometimes omits merchant_reference', () => {
    const values = fc.sample(eventTextFields(), { seed: 11, numRuns: 200 });
    expect(values.some((v) => /[^\x20-\x7e]/.test(v.description))).toBe(true);
    expect(values.some((v) => v.merchant_reference === undefined)).toBe(true);
    expect(values.some((v) => v.merchant_reference !== undefined)).toBe(true);
  });

  it('yields the same values for the same seed', () => {
    expect(fc.sample(eventTextFields(), { seed: 42, numRuns: 20 })).toEqual(fc.sample(eventTextFields(), { seed: 42, numRuns: 20 }));
  });
});
