import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validMetadata } from './valid-metadata.ts';

describe('validMetadata', () => {
  it('yields objects of at most 20 printable-ASCII keys (1..64 chars) and string values (0..500 chars)', () => {
    fc.assert(
      fc.property(validMetadata(), (m) => {
        expect(Object.getPrototypeOf(m)).toBe(Object.prototype);
        const entries = Object.entries(m);
        expect(entries.length).toBeLessThanOrEqual(20);
        for (const [k, v] of entries) {
          expect(k).toMatch(/^[\x21-\x7e]([\x20-\x7e]{0,62}[\x21-\x7e])?$/);
          expect(typeof v).toBe('string');
          expect(v).toMatch(/^[\x20-\x7e]{0,500}$/);
          expect(['conformance_run', 'sink']).not.toContain(k);
        }
        // what a target receives is what was generated
        expect(JSON.parse(JSON.stringify(m))).toEqual(m);
      }),
      { numRuns: 300 },
    );
  });

  it('yields exactly-at-limit objects, the empty object and every key count', () => {
    const values = fc.sample(validMetadata(), { seed: 21, numRuns: 1000 });
    const atLimit = values.filter(
      (m) =>
        Object.keys(m).length === 20 &&
        Object.entries(m).every(([k, v]) => k.length === 64 && v.length === 500),
    );
    expect(atLimit.length).toBeGreaterThan(0);
    expect(values.some((m) => Object.keys(m).length === 0)).toBe(true);
    const counts = new Set(values.map((m) => Object.keys(m).length));
    for (let n = 0; n <= 20; n++) expect(counts.has(n), `a ${n}-key object`).toBe(true);
    expect(values.some((m) => Object.keys(m).some((k) => k.length === 1))).toBe(true);
    expect(values.some((m) => Object.values(m).some((v) => v === ''))).toBe(true);
  });

});

describe('validMetadata: options and seeds', () => {
  it('honours maxKeys and excludeKeys', () => {
    fc.assert(
      fc.property(validMetadata({ maxKeys: 3, excludeKeys: ['a'] }), (m) => {
        expect(Object.keys(m).length).toBeLessThanOrEqual(3);
        expect(Object.keys(m)).not.toContain('a');
      }),
    );
    expect(() => validMetadata({ maxKeys: 21 })).toThrow(RangeError);
  });

  it('adds the include entries to every value, counted within the 20 keys', () => {
    const values = fc.sample(validMetadata({ include: { conformance_run: 'run-1' } }), { seed: 4, numRuns: 300 });
    for (const m of values) {
      expect(m.conformance_run).toBe('run-1');
      expect(Object.keys(m).length).toBeLessThanOrEqual(20);
    }
    expect(values.some((m) => Object.keys(m).length === 20)).toBe(true);
    expect(() => validMetadata({ include: { ['k'.repeat(65)]: 'v' } })).toThrow(RangeError);
  });

  it('yields the same values for the same seed', () => {
    const a = fc.sample(validMetadata(), { seed: 42, numRuns: 20 });
    const b = fc.sample(validMetadata(), { seed: 42, numRuns: 20 });
    expect(a).toEqual(b);
  });
});
