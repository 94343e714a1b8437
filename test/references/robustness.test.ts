import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startReference, type RunningReference } from './helpers.ts';
import { rawExchange } from '../support/raw-http.ts';

let ref: RunningReference;
const internalErrors: unknown[] = [];
beforeAll(async () => {
  ref = await startReference({ createDelayMs: 0, webhookBaseUrl: 'http://127.0.0.1:9', onError: (e) => internalErrors.push(e) });
});
afterAll(async () => {
  await ref.close();
  expect(internalErrors).toEqual([]);
});

const post = (rawBody: string | Buffer, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  call(ref, 'POST', '/v1/payments', { rawBody, headers });

const raw = (bytes: string | Buffer): Promise<string> => rawExchange(ref.url, bytes);

describe('robustness', () => {
  it('answers malformed bodies 400 invalid_request without a stack trace', async () => {
    const cases: [string | Buffer, Record<string, string>?][] = [
      ['{"amount": "1"'],
      [''],
      ['[]'],
      ['null'],
      ['"1.00"'],
      [Buffer.from([0x7b, 0x22, 0x61, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])],
      ['{"amount":"1"}', { 'content-type': 'text/plain' }],
      ['{"amount":"1"}', {}],
      ['x'.repeat(1024 * 1024 + 1)],
    ];
    for (const [body, headers] of cases) {
      const r = await post(body, headers);
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('invalid_request');
      expect(r.text).not.toMatch(/at .*\.ts:\d+/);
    }
  });

  it('accepts deeply nested unknown fields, with or without an Idempotency-Key', async () => {
    const deep = `{"amount":"1","x":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    expect((await post(deep)).status).toBe(201);
    expect((await call(ref, 'POST', '/v1/payments', { rawBody: deep, headers: { 'content-type': 'application/json', 'idempotency-key': 'deep' } })).status).toBe(201);
  });

  it('treats bad percent-encoding in an id as an unknown payment', async () => {
    for (const path of ['/v1/payments/%E0%A4%A', '/v1/payments/%', '/v1/payments/%00', '/v1/payments/a%2Fb/cancel']) {
      const r = await call(ref, path.endsWith('cancel') ? 'POST' : 'GET', path);
      expect(r.status, path).toBe(404);
      expect(r.json.error.code).toBe('payment_not_found');
    }
  });

  it('reads a 70 000-character key (header limit raised): 401 invalid_api_key', async () => {
    const answer = await raw(`GET /v1/payments HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer pt_test_sk_${'a'.repeat(70_000)}\r\nConnection: close\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer).toContain('"code":"invalid_api_key"');
  });

  it('answers a header block over the raised limit 400 with the error envelope', async () => {
    const answer = await raw(`GET /v1/payments HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(120_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('"code":"invalid_request"');
  });

  it('answers a garbage request line 400', async () => {
    const answer = await raw('HELLO\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
  });

  it('stays up after all that', async () => {
    expect((await call(ref, 'GET', '/v1/payments?limit=1')).status).toBe(200);
  });
});
