import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invalidCredentials, splitKey } from './invalid-credentials.ts';

const KEYS = {
  test: 'pt_test_sk_Q7vX2mK9pLw4Rt8ZaB3nC6yD',
  live: 'pt_live_sk_h5J2kL8mN4pQ7rS1tU6vW9xY',
  test_revoked: 'pt_test_sk_Revoked000000000000000',
};
const ISSUED = Object.values(KEYS);

describe('invalidCredentials', () => {
  it('yields missing, malformed, unknown and revoked credentials, never a valid Bearer key', () => {
    fc.assert(
      fc.property(invalidCredentials(KEYS, ISSUED), (c) => {
        if (c.kind === 'missing') expect(c.key).toBeNull();
        if (c.kind === 'revoked') expect(c.key).toBe(KEYS.test_revoked);
        if (c.kind === 'unknown') expect(ISSUED).not.toContain(c.key);
        if (c.key !== undefined && c.key !== null && c.kind !== 'revoked') expect([KEYS.test, KEYS.live]).not.toContain(c.key);
        if (c.authorization !== undefined) expect(c.authorization).not.toBe(`Bearer ${KEYS.test}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('reaches all four kinds, and leaves revoked out when the profile has no revoked key', () => {
    expect(new Set(fc.sample(
      invalidCredentials(KEYS, ISSUED),
      { seed: 3, numRuns: 400 },
    ).map((c) => c.kind))).toEqual(new Set(['missing', 'malformed', 'unknown', 'revoked']));
    const noRevoked = fc.sample(invalidCredentials({ test: KEYS.test }, [KEYS.test]), { seed: 3, numRuns: 400 });
    expect(noRevoked.some((c) => c.kind === 'revoked')).toBe(false);
  });

  it('splitKey splits a Bearer key into prefix and secret', () => {
    expect(splitKey(KEYS.live)).toEqual({ prefix: 'pt_live_sk_', secret: 'h5J2kL8mN4pQ7rS1tU6vW9xY' });
    expect(splitKey('sk_x')).toEqual({ prefix: '', secret: 'sk_x' });
  });

  it('yields the same values for the same seed', () => {
    expect(fc.sample(
      invalidCredentials(KEYS, ISSUED),
      { seed: 42, numRuns: 20 },
    )).toEqual(fc.sample(invalidCredentials(KEYS, ISSUED), { seed: 42, numRuns: 20 }));
  });
});
