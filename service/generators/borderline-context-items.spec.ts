import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { borderlineContextItems } from './borderline-context-items.ts';

describe('borderlineContextItems', () => {
  it('yields context_items: null with a reason and no expected code', () => {
    fc.assert(
      fc.property(borderlineContextItems(), (c) => {
        expect(c.value).toBeNull();
        expect(Object.keys(c).sort()).toEqual(['value', 'why']);
        expect(c.why).toMatch(/^context_items /);
      }),
      { numRuns: 10 },
    );
  });

  it('yields the same values for the same seed', () => {
    expect(fc.sample(borderlineContextItems(), { seed: 42, numRuns: 20 })).toEqual(
      fc.sample(borderlineContextItems(), { seed: 42, numRuns: 20 }),
    );
  });
});
