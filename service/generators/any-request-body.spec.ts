import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyRequestBody } from './any-request-body.ts';

describe('anyRequestBody', () => {
  it('yields the four kinds, a JSON kind holding a JSON-serialisable value and a raw kind at most 64 characters', () => {
    fc.assert(
      fc.property(anyRequestBody(), (b) => {
        expect(['none', 'create', 'json', 'raw']).toContain(b.kind);
        if (b.kind === 'json') expect(typeof JSON.stringify(b.json)).toBe('string'); // serialisable (-0 comes back as 0)
        if (b.kind === 'raw') expect(b.raw.length).toBeLessThanOrEqual(64);
      }),
      { numRuns: 1000 },
    );
  });

  it('reaches every kind', () => {
    expect(new Set(fc.sample(
      anyRequestBody(),
      { seed: 2, numRuns: 200 },
    ).map((b) => b.kind))).toEqual(new Set(['none', 'create', 'json', 'raw']));
  });

  it('yields the same values for the same seed', () => {
    expect(fc.sample(anyRequestBody(), { seed: 42, numRuns: 20 })).toEqual(fc.sample(anyRequestBody(), { seed: 42, numRuns: 20 }));
  });
});
