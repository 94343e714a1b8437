import { describe, expect, it } from 'vitest';
import { redactHeaders, redactSecret, redactText } from '../core/redact.ts';

describe('redaction', () => {
  it('cuts keys and signing secrets to prefix + last 4', () => {
    expect(redactSecret('pt_test_sk_abcdefghijkl1234')).toBe('pt_test_sk_…1234');
    expect(redactSecret('whsec_abcdefgh9876')).toBe('whsec_…9876');
    expect(redactText('key pt_live_sk_ZZZZZZZZ4321 and whsec_qqqqqqq0000 end')).toBe('key pt_live_sk_…4321 and whsec_…0000 end');
  });
  it('redacts extra secrets and the Authorization header', () => {
    expect(redactText('token=controltoken-abcdef', ['controltoken-abcdef'])).toBe('token=…cdef');
    expect(redactHeaders({
      Authorization: 'Bearer pt_test_sk_secretsecret9999',
      'x-a': 'b',
    })).toEqual({ Authorization: 'Bearer pt_test_sk_…9999', 'x-a': 'b' });
  });
  it('a list of extra secrets changed in place after a call is matched by its new contents', () => {
    const extra = ['controltoken-abcdef'];
    expect(redactText('a controltoken-abcdef b', extra)).toBe('a …cdef b');
    extra.push('othersecret-uvwxyz');
    expect(redactText('c othersecret-uvwxyz d', extra)).toBe('c …wxyz d');
    extra.length = 0;
    expect(redactText('e controltoken-abcdef f', extra)).toBe('e controltoken-abcdef f');
  });
});
