/** The structural diff behind "expected vs actual", and "copy as curl" without the key. */
import { describe, expect, it } from 'vitest';
import { curlOf, shellQuote } from '../../results/render/curl.ts';
import { diffJson, prettyJsonHtml } from '../../results/render/json-diff.ts';
import type { Exchange } from '../../core/client.ts';

describe('structural diff', () => {
  it('lists only the differing paths, with both values', () => {
    const expected = { amount: '10.00', metadata: { a: '1', b: [1, 2] }, gone: true };
    const actual = { amount: 10, metadata: { a: '1', b: [1, 3, 4] }, extra: null };
    expect(diffJson(expected, actual).entries).toEqual([
      { path: '$.amount', kind: 'changed', expected: '10.00', actual: 10 },
      { path: '$.metadata.b[1]', kind: 'changed', expected: 2, actual: 3 },
      { path: '$.metadata.b[2]', kind: 'extra', actual: 4 },
      { path: '$.gone', kind: 'missing', expected: true },
      { path: '$.extra', kind: 'extra', actual: null },
    ]);
    expect(diffJson({ 'odd key': 1 }, { 'odd key': 2 }).entries[0]!.path).toBe('$["odd key"]');
    expect(diffJson('a', 'b').entries).toEqual([{ path: '$', kind: 'changed', expected: 'a', actual: 'b' }]);
    expect(diffJson({ a: [1] }, { a: [1] }).entries).toEqual([]);
    const wide = diffJson(Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`k${i}`, i])), {}, 50);
    expect(wide.entries).toHaveLength(50);
    expect(wide.more).toBe(30);
  });

  it('marks the differing paths in the pretty-printed body, escaped', () => {
    const html = String(prettyJsonHtml({ amount: '<b>', ok: 1 }, new Set(['$.amount'])));
    expect(html).toContain('<mark class="d" data-path="$.amount">&quot;amount&quot;: &quot;&lt;b&gt;&quot;</mark>');
    expect(html).toContain('  &quot;ok&quot;: 1');
    expect(html).not.toContain('<b>');
  });
});

const exchange = (headers: Record<string, string>, body?: string): Exchange => ({
  seq: 1, at: 'now', durationMs: 3,
  request: { method: 'POST', path: "/v1/payments?x=it's", headers, body },
  response: { status: 201, headers: {}, body: '{}' },
});

describe('copy as curl', () => {
  it('reproduces the request with Authorization: Bearer $HPS_KEY and says which key', () => {
    const c = curlOf(
      exchange(
        { authorization: 'Bearer pt_test_sk_…9SBM', 'content-type': 'application/json', 'content-length': '12', 'idempotency-key': 'k1' },
        '{"a":"it\'s"}',
      ),
      'http://127.0.0.1:4010/',
    );
    expect(c.command).toBe(`curl -sS -i -X 'POST' 'http://127.0.0.1:4010/v1/payments?x=it'\\''s' -H "Authorization: Bearer $HPS_KEY" -H 'content-type: application/json' -H 'idempotency-key: k1' --data-binary '{"a":"it'\\''s"}'`);
    expect(c.notes).toEqual(['HPS_KEY: the key shown as pt_test_sk_…9SBM']);
  });

  it('keeps a malformed Authorization as sent, the key still a variable', () => {
    const c = curlOf(exchange({ authorization: 'bearer  pt_live_sk_…abcd' }), 'http://h');
    expect(c.command).toContain(`-H "Authorization: bearer  $HPS_KEY"`);
    const raw = curlOf(exchange({ authorization: 'Basic Zm9v"$(x)' }), 'http://h');
    expect(raw.command).toContain(`-H 'authorization: Basic Zm9v"$(x)'`);
  });

  it('quotes for a POSIX shell', () => {
    expect(shellQuote("a'b $c")).toBe(`'a'\\''b $c'`);
  });
});

describe('timeline evidence', () => {
  it('turns arrivals and the scaled schedule into attempts with measured and scheduled gaps', async () => {
    const { timelineEvidence } = await import('../../catalogue/report/timeline.ts');
    const { gapVerdict } = await import('../../results/render/timeline-svg.ts');
    const t = timelineEvidence('evt_1', 'payment.created@/a', [
      {
        receivedAt: 10_120,
        status: 500,
      }, { receivedAt: 10_000, status: 500 }, { receivedAt: 10_130, status: 'timeout' }, { receivedAt: 11_500, status: 200 },
    ], [0, 300, 1200]);
    expect(t.attempts).toEqual([
      { at_ms: 0, status: 500, gap_ms: 0 },
      { at_ms: 120, status: 500, gap_ms: 120, expected_gap_ms: 0 },
      { at_ms: 130, status: 'timeout', gap_ms: 10, expected_gap_ms: 300 },
      { at_ms: 1500, status: 200, gap_ms: 1370, expected_gap_ms: 1200 },
    ]);
    expect(t.attempts.map(gapVerdict)).toEqual(['first', 'on-time', 'early', 'on-time']);
  });
});

describe('copy as curl, limits', () => {
  it('says when a header cannot be sent as recorded', () => {
    const c = curlOf(exchange({ 'x-probe': 'a\r\nInjected: 1' }), 'http://h');
    expect(c.notes).toEqual(['header x-probe holds a line break or NUL, which curl will not send as recorded']);
  });
});
