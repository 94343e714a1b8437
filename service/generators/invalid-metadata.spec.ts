import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invalidMetadata } from './invalid-metadata.ts';

describe('invalidMetadata', () => {
  it('breaks exactly the rule it names, with the codes the spec allows', () => {
    fc.assert(
      fc.property(invalidMetadata(), (c) => {
        const entries = Object.entries(c.value);
        const longKeys = entries.filter(([k]) => k.length > 64);
        const longValues = entries.filter(([, v]) => typeof v === 'string' && v.length > 500);
        const nonStrings = entries.filter(([, v]) => typeof v !== 'string');
        const tooMany = entries.length > 20;
        const broken = [
          tooMany && 'CREATE-METADATA-TOO-MANY-KEYS',
          longKeys.length > 0 && 'CREATE-METADATA-KEY-TOO-LONG',
          longValues.length > 0 && 'CREATE-METADATA-VALUE-TOO-LONG',
          nonStrings.length > 0 && 'CREATE-METADATA-NOT-STRINGS',
        ].filter(Boolean);
        expect(broken).toEqual([c.breaks]);
        expect(longKeys.length + longValues.length + nonStrings.length).toBeLessThanOrEqual(1);
        if (c.breaks !== 'CREATE-METADATA-TOO-MANY-KEYS') expect(entries.length).toBeLessThanOrEqual(20);
        expect(c.codes).toEqual(
          c.breaks === 'CREATE-METADATA-NOT-STRINGS' ? ['invalid_metadata', 'invalid_request'] : ['invalid_metadata'],
        );
        for (const [k] of entries) expect(['conformance_run', 'sink']).not.toContain(k);
        expect(JSON.parse(JSON.stringify(c.value))).toEqual(c.value);
        expect(c.why).toMatch(/^metadata /);
      }),
      { numRuns: 1000 },
    );
  });

  it('hits the boundaries: 21 keys, a 65-character key, a 501-character value, and every non-string type', () => {
    const cases = fc.sample(invalidMetadata(), { seed: 23, numRuns: 2000 });
    const entries = cases.map((c) => Object.entries(c.value));
    expect(entries.some((e) => e.length === 21)).toBe(true);
    expect(entries.some((e) => e.some(([k]) => k.length === 65))).toBe(true);
    expect(entries.some((e) => e.some(([, v]) => typeof v === 'string' && v.length === 501))).toBe(true);
    const types = new Set<string>(entries.flatMap((e) => e.map(([, v]) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v))));
    for (const t of ['number', 'boolean', 'null', 'object', 'array']) expect(types.has(t), t).toBe(true);
  });

});

describe('invalidMetadata: options and seeds', () => {
  it('honours breaks', () => {
    fc.assert(
      fc.property(invalidMetadata({ breaks: ['CREATE-METADATA-KEY-TOO-LONG'] }), (c) => c.breaks === 'CREATE-METADATA-KEY-TOO-LONG'),
    );
    expect(() => invalidMetadata({ breaks: [] })).toThrow(RangeError);
  });

  it('adds include entries to every value without adding a second violation', () => {
    fc.assert(
      fc.property(invalidMetadata({ include: { conformance_run: 'run-1' } }), (c) => {
        expect(c.value.conformance_run).toBe('run-1');
        const n = Object.keys(c.value).length;
        if (c.breaks === 'CREATE-METADATA-TOO-MANY-KEYS') expect(n).toBeGreaterThan(20);
        else expect(n).toBeLessThanOrEqual(20);
      }),
      { numRuns: 300 },
    );
  });

  it('yields the same values for the same seed', () => {
    const a = fc.sample(invalidMetadata(), { seed: 42, numRuns: 20 });
    const b = fc.sample(invalidMetadata(), { seed: 42, numRuns: 20 });
    expect(a).toEqual(b);
  });
});
