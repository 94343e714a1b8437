import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as generators from './index.ts';

describe('generators/index', () => {
  const arbitraries = Object.entries(generators).filter(
    ([name, v]) => typeof v === 'function' && /^[a-z]/.test(name) && !['unionCodes', 'checkMarker', 'enumNearMisses'].includes(name),
  ) as [string, () => fc.Arbitrary<unknown>][];

  it('re-exports every public arbitrary', () => {
    expect(arbitraries.map(([n]) => n).sort()).toEqual(
      [
        'amountNotString', 'borderlineAmount', 'borderlineContextItems', 'borderlineMetadata', 'borderlineReturnUrl',
        'contextItems', 'invalidAllowedChannels', 'invalidAllowedMethods', 'invalidAmount', 'invalidCreateRequest',
        'invalidMetadata', 'invalidReturnUrl', 'longString', 'malformedBody', 'multiViolationRequest', 'uniqueSuffix',
        'validAllowedChannels', 'validAllowedMethods', 'validAmount', 'validCreateRequest', 'validMetadata',
        'validReturnUrl', 'wrongContentType', 'wrongTypeField',
      ].sort(),
    );
  });

  it('every negative case names a catalogue rule, at least one 400 code and a one-line why', () => {
    for (const [name, make] of arbitraries) {
      for (const v of fc.sample(make(), { seed: 1, numRuns: 30 })) {
        if (v === null || typeof v !== 'object' || !('breaks' in v)) continue;
        const c = v as generators.InvalidCase;
        expect(generators.CREATE_RULE_IDS, name).toContain(c.breaks);
        expect(c.codes.length, name).toBeGreaterThan(0);
        expect(c.why, name).toMatch(/^[^\n\r]+$/);
      }
    }
  });
});
