import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blankExternalId } from './blank-external-id.ts';

describe('blankExternalId', () => {
  it('yields only empty or control-holding strings, and reaches both classes', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(blankExternalId(), (c) => {
        expect(c.value === '' || /[\u0000-\u001f\u007f]/.test(c.value)).toBe(true);
        seen.add(c.value === '' ? 'empty' : 'control');
      }),
      { numRuns: 200 },
    );
    expect([...seen].sort()).toEqual(['control', 'empty']);
  });

  it('yields the same values for the same seed', () => {
    expect(fc.sample(blankExternalId(), { seed: 3, numRuns: 20 })).toEqual(fc.sample(blankExternalId(), { seed: 3, numRuns: 20 }));
  });
});
