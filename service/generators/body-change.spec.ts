import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BODY_CHANGES, bodyChange } from './body-change.ts';

describe('bodyChange', () => {
  it('yields only the four changes and reaches each of them', () => {
    const values = fc.sample(bodyChange(), { seed: 1, numRuns: 200 });
    for (const v of values) expect(BODY_CHANGES).toContain(v);
    expect(new Set(values)).toEqual(new Set(BODY_CHANGES));
  });

  it('never yields "identical" (a second body that does not differ is a replay, not a conflict)', () => {
    expect(BODY_CHANGES as readonly string[]).not.toContain('identical');
  });

  it('yields the same values for the same seed', () => {
    expect(fc.sample(bodyChange(), { seed: 42, numRuns: 20 })).toEqual(fc.sample(bodyChange(), { seed: 42, numRuns: 20 }));
  });
});
