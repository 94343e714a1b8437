/** A Mismatch of expectError names the missing piece when the status is right and the code is not (issue 20: "answered 404, expected 404 not_found" hid it). */
import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../core/client.ts';
import { expectError } from '../../service/harness/worker/expect.ts';

const answer = (status: number, json: unknown): ApiResponse => ({
  status, headers: {}, text: JSON.stringify(json), json,
  exchange: { seq: 1, at: '', durationMs: 0, request: { method: 'GET', path: '/v1/payments/pay_x', headers: {} } },
});

describe('expectError messages', () => {
  it('names a missing error.code, a wrong one, and says nothing more when the status differs', () => {
    expect(() => expectError(
      answer(404, {}),
      404,
      ['not_found'],
    )).toThrow('GET /v1/payments/pay_x answered 404, expected 404 not_found (the answer carries no error.code)');
    expect(() => expectError(
      answer(404, { error: { code: 'missing' } }),
      404,
      ['not_found'],
    )).toThrow('answered 404 missing, expected 404 not_found (error.code "missing" is not not_found)');
    expect(() => expectError(
      answer(400, { error: { code: 'invalid_request' } }),
      404,
      ['not_found'],
    )).toThrow(/answered 400 invalid_request, expected 404 not_found$/);
    expect(() => expectError(answer(404, { error: { code: 'not_found' } }), 404, ['not_found'])).not.toThrow();
  });
});
