import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COLLECTION_CHANNELS, PAYMENT_METHODS } from './create-payment-request.ts';
import { idempotencyBodyFields } from './idempotency-body-fields.ts';

const trimmedAscii = (max: number) => (s: string) => s.length >= 1 && s.length <= max && s.trim() === s && /^[\x20-\x7e]+$/.test(s);

describe('idempotencyBodyFields', () => {
  it('yields valid fields: amount of at most 9 integer digits, trimmed ASCII text, known enum members, no reserved metadata key', () => {
    fc.assert(
      fc.property(idempotencyBodyFields(), (f) => {
        expect(f.amount).toMatch(/^(0|[1-9][0-9]{0,8})(\.[0-9]{1,2})?$/);
        if (f.description !== undefined) expect(trimmedAscii(60)(f.description)).toBe(true);
        if (f.merchant_reference !== undefined) expect(f.merchant_reference).toMatch(/^[A-Za-z0-9_-]{1,24}$/);
        expect(Object.keys(f.extra_metadata).length).toBeLessThanOrEqual(3);
        for (const [k, v] of Object.entries(f.extra_metadata)) {
          expect(k).toMatch(/^[a-z][a-z0-9_]{0,15}$/);
          expect(['conformance_run', 'sink']).not.toContain(k);
          expect(trimmedAscii(40)(v)).toBe(true);
        }
        for (const m of f.allowed_methods ?? []) expect(PAYMENT_METHODS).toContain(m);
        for (const c of f.allowed_channels ?? []) expect(COLLECTION_CHANNELS).toContain(c);
        if (f.allowed_methods) expect(f.allowed_methods.length).toBeGreaterThan(0);
        if (f.allowed_channels) expect(f.allowed_channels.length).toBeGreaterThan(0);
      }),
      { numRuns: 1000 },
    );
  });

  it('sometimes leaves each optional field out and sometimes sends it', () => {
    const values = fc.sample(idempotencyBodyFields(), { seed: 5, numRuns: 500 });
    for (const k of ['description', 'merchant_reference', 'allowed_methods', 'allowed_channels'] as const) {
      expect(values.some((v) => v[k] === undefined), k).toBe(true);
      expect(values.some((v) => v[k] !== undefined), k).toBe(true);
    }
    expect(values.some((v) => Object.keys(v.extra_metadata).length === 0)).toBe(true);
    expect(values.some((v) => Object.keys(v.extra_metadata).length > 0)).toBe(true);
  });

  it('yields the same values for the same seed', () => {
    expect(fc.sample(
      idempotencyBodyFields(),
      { seed: 42, numRuns: 20 },
    )).toEqual(fc.sample(idempotencyBodyFields(), { seed: 42, numRuns: 20 }));
  });
});
