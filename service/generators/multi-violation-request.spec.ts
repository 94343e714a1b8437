import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unionCodes } from './invalid-case.ts';
import { bodyViolations } from './internal/body-oracle.ts';
import { multiViolationRequest } from './multi-violation-request.ts';

describe('multiViolationRequest', () => {
  it('breaks two different fields, codes = the union of both parts', () => {
    fc.assert(
      fc.property(multiViolationRequest(), (c) => {
        const violations = bodyViolations(c.value);
        expect(Object.keys(violations), JSON.stringify(violations)).toHaveLength(2);
        expect(c.breaks).toBe('CREATE-MULTI-VIOLATION');
        expect(c.parts).toHaveLength(2);
        const allowed = Object.values(violations).flat();
        for (const p of c.parts) expect(allowed).toContain(p.breaks);
        expect(c.codes).toEqual(unionCodes(c.parts[0]!.codes, c.parts[1]!.codes));
        expect(c.why).toContain('; and ');
      }),
      { numRuns: 200 },
    );
  });

  it('honours count and the marker', () => {
    fc.assert(
      fc.property(multiViolationRequest({ count: 4, marker: { runId: 'm1' } }), (c) => {
        expect(Object.keys(bodyViolations(c.value))).toHaveLength(4);
        expect(c.parts).toHaveLength(4);
        if (typeof c.value.external_id === 'string') expect(c.value.external_id.startsWith('m1-')).toBe(true);
      }),
      { numRuns: 200 },
    );
    expect(() => multiViolationRequest({ count: 1 })).toThrow(RangeError);
  });

  it('combines many pairs of rules', () => {
    const pairs = new Set(
      fc.sample(multiViolationRequest(), { seed: 83, numRuns: 500 }).map((c) => c.parts.map((p) => p.breaks).sort().join('+')),
    );
    expect(pairs.size).toBeGreaterThan(30);
  });

  it('yields the same values for the same seed', () => {
    const a = fc.sample(multiViolationRequest(), { seed: 42, numRuns: 20 });
    const b = fc.sample(multiViolationRequest(), { seed: 42, numRuns: 20 });
    expect(a).toEqual(b);
  });
});
