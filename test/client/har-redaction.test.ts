/**
 * traffic.har never carries a secret: the Authorization, Proxy-Authorization, Cookie and Set-Cookie
 * values are their redacted form; the request's key anywhere else (a query, a body, an echoed
 * answer, another header) is redacted too; an over-long body is clipped and says so.
 */
import { describe, expect, it } from 'vitest';
import { harEntry, MAX_HAR_BODY } from '../../merchant/client/har.ts';

const KEY = 'pt_test_sk_4f9aQ2Lr8ZkT1mWx7Vb3Nc6Hy0';

describe('traffic.har entries', () => {
  it('redact the key wherever the exchange carries it, and every credential header', () => {
    const entry = harEntry({
      startedAt: new Date(0), durationMs: 5, method: 'POST', url: `http://127.0.0.1:1/v1/payments?debug_key=${KEY}`,
      requestHeaders: {
        authorization: `Bearer ${KEY}`,
        cookie: 'session=s3cr3t-session-value',
        'x-echo': KEY,
        'content-type': 'application/json',
      },
      requestBody: JSON.stringify({ description: `key ${KEY}` }),
      response: {
        status: 400,
        headers: { 'set-cookie': 'session=another-s3cr3t-value; HttpOnly', 'content-type': 'application/json' },
        body: JSON.stringify({ error: { message: `bad ${KEY}` } }),
      },
    });
    const text = JSON.stringify(entry);
    expect(text).not.toContain(KEY.slice('pt_test_sk_'.length, 'pt_test_sk_'.length + 12));
    expect(text).not.toContain('s3cr3t-session-value');
    expect(text).not.toContain('another-s3cr3t-value');
    const headers = (entry.request as { headers: Array<{ name: string; value: string }> }).headers;
    expect(headers.find((h) => h.name === 'authorization')!.value).toMatch(/^Bearer pt_test_sk_…\w{4}$/);
  });

  it('clip a body over the bound and say so', () => {
    const entry = harEntry({
      startedAt: new Date(0),
      durationMs: 1,
      method: 'GET',
      url: 'http://127.0.0.1:1/v1/payments',
      requestHeaders: {},
      requestBody: '',
      response: { status: 200, headers: {}, body: 'y'.repeat(MAX_HAR_BODY + 10) },
    });
    const content = (entry.response as { content: { text: string; size: number; comment?: string } }).content;
    expect(content.text).toHaveLength(MAX_HAR_BODY);
    expect(content.size).toBe(MAX_HAR_BODY + 10);
    expect(content.comment).toBe(`clipped to ${MAX_HAR_BODY} characters`);
  });
});
