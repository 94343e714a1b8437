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
    expect(redactHeaders({ Authorization: 'Bearer pt_test_sk_secretsecret9999', 'x-a': 'b' })).toEqual({ Authorization: 'Bearer pt_test_sk_…9999', 'x-a': 'b' });
  });
});
