import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validate } from '../../catalogue/schemas/index.ts';
import { pendingBody } from './pending-body.ts';

describe('pendingBody', () => {
  it('yields CreatePaymentRequest bodies the schema accepts, with only the fields it draws', () => {
    fc.assert(
      fc.property(pendingBody(), (b) => {
        expect(validate('CreatePaymentRequest', b).valid, JSON.stringify(b)).toBe(true);
        for (const k of Object.keys(b)) expect(['amount', 'description', 'return_url', 'allowed_methods', 'allowed_channels']).toContain(k);
        for (const k of ['allowed_methods', 'allowed_channels'] as const) if (k in b) expect((b[k] as unknown[]).length).toBeGreaterThan(0);
      }),
      { numRuns: 1000 },
    );
  });

  it('never carries run markers (the suite adds them)', () => {
    fc.assert(fc.property(pendingBody(), (b) => !('external_id' in b) && !('metadata' in b)), { numRuns: 300 });
  });

  it('sends each optional field sometimes and leaves it out sometimes', () => {
    const values = fc.sample(pendingBody(), { seed: 6, numRuns: 300 });
    for (const k of ['description', 'return_url', 'allowed_methods', 'allowed_channels']) {
      expect(values.some((v) => k in v), k).toBe(true);
      expect(values.some((v) => !(k in v)), k).toBe(true);
    }
  });

  it('yields the same values for the same seed', () => {
    expect(fc.sample(pendingBody(), { seed: 42, numRuns: 20 })).toEqual(fc.sample(pendingBody(), { seed: 42, numRuns: 20 }));
  });
});
