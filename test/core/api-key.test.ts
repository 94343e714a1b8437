import { describe, expect, it } from 'vitest';
import { livemodeOfKey } from '../../core/api-key.ts';
import { splitKey } from '../../service/generators/invalid-credentials.ts';
import { liveShaped } from '../../suites/auth/invalid-key.ts';

describe('livemodeOfKey: the prefix decides the environment', () => {
  it('reads Live and Test prefixes, and nothing else', () => {
    expect(livemodeOfKey('pt_live_sk_abc')).toBe(true);
    expect(livemodeOfKey('pt_test_sk_abc')).toBe(false);
    for (const other of [
      'sk_live_abc',
      'pt_live_pk_abc',
      'PT_LIVE_SK_abc',
      ' pt_live_sk_abc',
      'Bearer pt_test_sk_abc',
      '',
      null,
      undefined,
    ]) {
      expect(livemodeOfKey(other), String(other)).toBeUndefined();
    }
  });

  it('the suite helpers built on it split keys and spot Live-shaped tokens as before', () => {
    expect(splitKey('pt_live_sk_abc')).toEqual({ prefix: 'pt_live_sk_', secret: 'abc' });
    expect(splitKey('pt_test_sk_')).toEqual({ prefix: 'pt_test_sk_', secret: '' });
    expect(splitKey('sk_test_abc')).toEqual({ prefix: '', secret: 'sk_test_abc' });
    expect(liveShaped('Bearer pt_live_sk_x')).toBe(true);
    expect(liveShaped('Bearer\tpt_live_sk_x')).toBe(true);
    expect(liveShaped('pt_live_sk_x')).toBe(true);
    expect(liveShaped('Bearer xpt_live_sk_x')).toBe(false);
    expect(liveShaped('Bearer pt_test_sk_x')).toBe(false);
    expect(liveShaped(null)).toBe(false);
  });
});
