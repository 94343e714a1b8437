import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { borderlineMetadata } from './borderline-metadata.ts';

const codePoints = (s: string) => [...s].length;
const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

describe('borderlineMetadata', () => {
  it('yields one-entry objects whose key or value is over a limit under some reading of "character" and within it under another, or an ' +
    'odd key', () => {
    fc.assert(
      fc.property(borderlineMetadata(), (c) => {
        expect(Object.keys(c).sort()).toEqual(['value', 'why']);
        const entries = Object.entries(c.value);
        expect(entries).toHaveLength(1);
        const [k, v] = entries[0]!;
        const measures = (s: string) => [s.length, codePoints(s), utf8(s)];
        const keyAmbiguous = measures(k).some((n) => n > 64) && (codePoints(k) <= 65 || k.normalize('NFC').length <= 64);
        const valueAmbiguous = measures(v).some((n) => n > 500) && Math.min(...measures(v)) <= 500;
        const oddKey = k === '' || k.trim() !== k || /[\x00-\x1f]/.test(k) || k === '__proto__' || k === 'constructor';
        expect(keyAmbiguous || valueAmbiguous || oddKey).toBe(true);
        expect(c.why).toMatch(/^metadata /);
      }),
      { numRuns: 500 },
    );
  });

  it('covers the 65-emoji key, the empty key and the 500-emoji value', () => {
    const values = fc.sample(borderlineMetadata(), { seed: 29, numRuns: 500 }).map((c) => Object.entries(c.value)[0]!);
    expect(values.some(([k]) => codePoints(k) === 65 && k.length === 130)).toBe(true);
    expect(values.some(([k]) => k === '')).toBe(true);
    expect(values.some(([, v]) => codePoints(v) === 500 && v.length === 1000)).toBe(true);
    // "__proto__" stays an own key, not a prototype change
    const proto = values.find(([k]) => k === '__proto__');
    expect(proto).toBeDefined();
  });

  it('yields the same values for the same seed', () => {
    const a = fc.sample(borderlineMetadata(), { seed: 42, numRuns: 20 });
    const b = fc.sample(borderlineMetadata(), { seed: 42, numRuns: 20 });
    expect(a).toEqual(b);
  });
});
