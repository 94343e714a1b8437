import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unknownKey } from './unknown-key.ts';

const TEST = 'pt_test_sk_Q7vX2mK9pLw4Rt8ZaB3nC6yD';
const LIVE = 'pt_live_sk_h5J2kL8mN4pQ7rS1tU6vW9xY';
const ISSUED = [TEST, LIVE, 'pt_test_sk_ReadOnly0000000000000'];

describe('unknownKey', () => {
  it('yields well-formed Bearer keys that were never issued', () => {
    fc.assert(
      fc.property(unknownKey([TEST, LIVE], ISSUED), (c) => {
        expect(c.kind).toBe('unknown');
        expect(c.authorization).toBeUndefined();
        expect(c.key).toMatch(/^pt_(test|live)_sk_[A-Za-z0-9]+$/);
        expect(ISSUED).not.toContain(c.key);
      }),
      { numRuns: 3000 },
    );
  });

  it('never yields an issued key even when a near miss would land on one', () => {
    // "extended" of TEST is the second issued key's neighbour only by chance; make it certain:
    const issued = [TEST, `${TEST}A`, `${TEST}B`];
    fc.assert(fc.property(unknownKey([TEST], issued), (c) => !issued.includes(c.key!)), { numRuns: 3000 });
  });

  it('reaches every family, near misses staying close to an issued key', () => {
    const values = fc.sample(unknownKey([TEST, LIVE], ISSUED), { seed: 7, numRuns: 2000 });
    expect(new Set(values.map((c) => c.family)).size).toBe(8);
    for (const c of values.filter((v) => v.family === 'one character changed')) {
      const base = [TEST, LIVE].find((k) => k.length === c.key!.length && k.slice(0, 11) === c.key!.slice(0, 11))!;
      expect([...base].filter((ch, i) => ch !== c.key![i]).length).toBe(1);
    }
  });

  it('prints a case without its text', () => {
    for (const c of fc.sample(unknownKey([TEST, LIVE], ISSUED), { seed: 2, numRuns: 200 })) {
      const secret = c.key!.slice(11);
      if (secret.length >= 6) expect(fc.stringify(c)).not.toContain(secret);
      expect(fc.stringify(c)).toContain(`${c.key!.length} chars`);
    }
  });

  it('yields the same values for the same seed', () => {
    expect(fc.sample(
      unknownKey([TEST], [TEST]),
      { seed: 42, numRuns: 20 },
    )).toEqual(fc.sample(unknownKey([TEST], [TEST]), { seed: 42, numRuns: 20 }));
  });
});
