import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validAllowedMethods } from './valid-allowed-methods.ts';

const MEMBERS: readonly string[] = ['BKASH', 'NAGAD'];

describe('validAllowedMethods', () => {
  it('yields non-empty lists of distinct members', () => {
    fc.assert(
      fc.property(validAllowedMethods(), (list) => {
        expect(list.length).toBeGreaterThan(0);
        expect(new Set(list).size).toBe(list.length);
        for (const m of list) expect(MEMBERS).toContain(m);
      }),
    );
  });

  it('yields every member, the full list and more than one order', () => {
    const lists = fc.sample(validAllowedMethods(), { seed: 37, numRuns: 300 });
    for (const m of MEMBERS) expect(lists.some((l) => l.length === 1 && l[0] === m), m).toBe(true);
    expect(lists.some((l) => l.length === MEMBERS.length)).toBe(true);
    expect(new Set(lists.filter((l) => l.length === MEMBERS.length).map((l) => l.join())).size).toBeGreaterThan(1);
  });

  it('yields the same values for the same seed', () => {
    const a = fc.sample(validAllowedMethods(), { seed: 42, numRuns: 20 });
    const b = fc.sample(validAllowedMethods(), { seed: 42, numRuns: 20 });
    expect(a).toEqual(b);
  });
});
