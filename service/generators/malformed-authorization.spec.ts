import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { malformedAuthorization, malformedAuthorizationTable } from './malformed-authorization.ts';

const KEY = 'pt_test_sk_Q7vX2mK9pLw4Rt8ZaB3nC6yD';
/** The one form of a valid key the spec shows: "Bearer", one space, the key. */
const VALID = `Bearer ${KEY}`;

describe('malformedAuthorization', () => {
  it('never yields the valid form, nor a form a standard parser accepts with the valid key', () => {
    fc.assert(
      fc.property(malformedAuthorization(KEY), (c) => {
        expect(c.kind).toBe('malformed');
        expect(c.key).toBeUndefined();
        const a = c.authorization!;
        expect(a).not.toBe(VALID);
        // scheme case, 1*SP and OWS around the valid key are left to observation, never generated
        expect(/^\s*bearer\s+(\S+)\s*$/i.exec(a)?.[1]).not.toBe(KEY);
      }),
      { numRuns: 3000 },
    );
  });

  it('yields header values undici can send: latin1 bytes, no control character but tab', () => {
    fc.assert(
      fc.property(malformedAuthorization(KEY), (c) => {
        for (const ch of c.authorization!) {
          const code = ch.charCodeAt(0);
          expect(code <= 0xff && (code >= 0x20 || code === 0x09) && code !== 0x7f, JSON.stringify(ch)).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('reaches every family', () => {
    const families = new Set(fc.sample(malformedAuthorization(KEY), { seed: 5, numRuns: 3000 }).map((c) => c.family));
    expect(families.size).toBe(18);
    for (const f of [
      'basic scheme',
      'wrong prefix',
      'non-ASCII in the key',
      'very long key',
      'extra spaces, unknown key',
    ]) expect(families).toContain(f);
  });

  it('prints a case as its family, kind and length, never its text (or as the print option says)', () => {
    for (const c of fc.sample(malformedAuthorization(KEY), { seed: 1, numRuns: 300 })) {
      const printed = fc.stringify(c);
      expect(printed).toContain(JSON.stringify(c.family));
      expect(printed).not.toContain(KEY.slice(11));
    }
    const [c] = fc.sample(malformedAuthorization(KEY, { print: (x) => `<${x.family}>` }), { seed: 1, numRuns: 1 });
    expect(fc.stringify(c)).toBe(`<${c!.family}>`);
  });

  it('yields the same values for the same seed', () => {
    const a = fc.sample(malformedAuthorization(KEY), { seed: 42, numRuns: 20 });
    expect(a).toEqual(fc.sample(malformedAuthorization(KEY), { seed: 42, numRuns: 20 }));
  });
});

describe('malformedAuthorizationTable', () => {
  const table = malformedAuthorizationTable(KEY);

  it('holds every scheme and encoding a clause names, the same on every call (no draw)', () => {
    const forms = table.map((c) => c.authorization);
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    for (const f of [
      `Basic ${b64(`${KEY}:`)}`,
      `Basic ${b64(`:${KEY}`)}`,
      `Basic ${b64(KEY)}`,
      KEY,
      `Token ${KEY}`,
      `Bearer${KEY}`,
      'Bearer',
      '',
    ]) expect(forms).toContain(f);
    expect(malformedAuthorizationTable(KEY).map((c) => c.authorization)).toEqual(forms);
  });

  it('is never a valid Bearer form of the key, and never says so with the valid key in a lenient spelling', () => {
    for (const c of table) {
      expect(c.authorization).not.toBe(`Bearer ${KEY}`);
      const m = /^(\S+)[ \t]+(\S+)$/.exec(c.authorization!.trim());
      expect(m !== null && m[1]!.toLowerCase() === 'bearer' && m[2] === KEY, c.family).toBe(false);
    }
  });

  it('covers every family the random cases draw from', () => {
    const families = new Set(table.map((c) => c.family));
    const drawn = new Set(fc.sample(malformedAuthorization(KEY), 3000).map((c) => c.family));
    expect([...drawn].filter((f) => !families.has(f))).toEqual([]);
  });
});
