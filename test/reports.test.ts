import { describe, expect, it } from 'vitest';
import { renderJunit } from '../results/render/junit.ts';
import { renderMarkdown } from '../results/render/markdown.ts';
import type { Report } from '../catalogue/report/model.ts';

const base: Report = {
  tool: { name: 'hps-conformance', version: '0.1.0' }, target: { base_url: 'http://t', embedded_reference: true },
  run_id: 'r', seed: 1, runs: 10, started_at: 'a', finished_at: 'b', duration_ms: 1500, selection: { areas: [], rules: [] },
  verdict: 'not_conformant', summary: { pass: 1, fail: 1, warn: 1, info: 0, skip: 1, error: 0, flaky: 0 },
  must: { total: 2, testable: 2, untestable: 0, ran: 2, passed: 1, failed: 1, skipped: 0 }, requests: 5,
  rules: [
    {
      id: 'A-ONE',
      area: 'auth',
      level: 'MUST',
      status: 'fail',
      title: 'x < y & "z"',
      spec: 's',
      reason: 'bad <thing>',
      evidence: [{ kind: 'replay', command: 'hps-conformance run --rule A-ONE --seed 1' }],
      tests: [{ title: 't', state: 'fail', duration_ms: 100, requests: 1 }],
    },
    { id: 'A-TWO', area: 'auth', level: 'MUST', status: 'pass', title: 'ok', spec: 's', evidence: [], tests: [] },
    { id: 'B-ONE', area: 'routing', level: 'SHOULD', status: 'warn', title: 'w', spec: 's', reason: 'no Allow', evidence: [], tests: [] },
    {
      id: 'B-TWO',
      area: 'routing',
      level: 'MUST',
      status: 'skip',
      title: 's',
      spec: 's',
      reason: 'profile lacks keys.live',
      evidence: [],
      tests: [],
    },
  ],
};

describe('JUnit renderer', () => {
  it('has a testsuite per area, a failure only for FAIL, escaped text', () => {
    const xml = renderJunit(base);
    expect(xml).toContain('<testsuites name="hps-conformance" tests="4" failures="1" errors="0" time="1.500">');
    expect(xml).toContain('<testsuite name="routing" tests="2" failures="0" errors="0" skipped="1"');
    expect(xml.match(/<testsuite /g)).toHaveLength(2);
    expect(xml.match(/<failure /g)).toHaveLength(1);
    expect(xml).toContain('x &lt; y &amp; &quot;z&quot;');
    expect(xml).toContain('<skipped message="profile lacks keys.live"/>');
    expect(xml).toContain('<system-err>WARN [SHOULD] w\nno Allow');
    expect(xml).not.toMatch(/<[^>]*<[^/!?]/); // no tag opened inside an attribute
  });
});

describe('Markdown renderer', () => {
  it('leads with the verdict and lists every non-passing rule with its replay line', () => {
    const md = renderMarkdown(base);
    expect(md.split('\n')[0]).toBe('# hps-conformance: ❌ not conformant');
    expect(md).toContain('| FAIL | `A-ONE` | MUST | bad &lt;thing&gt; | `hps-conformance run --rule A-ONE --seed 1` |');
    expect(md).toContain('| WARN | `B-ONE` |');
    expect(md).toContain('MUST rules: **2 of 2 testable ran**');
  });
});

describe('HTML renderer', () => {
  it('shows the mutation score as a section, with missed faults marked', async () => {
    const { renderHtml } = await import('../results/render/html.ts');
    const html = renderHtml({
      ...base,
      mutation: {
        faults: 2, caught: 1, byChance: 0, score: 0.5, seed: 1, seeds: [1], runs: 100, duration_ms: 1000, unexercised: [],
        results: [
          {
            fault: 'revoked-key-accepted',
            description: 'a revoked key <still> works',
            control: false,
            areas: ['auth'],
            expected: ['AUTH-REVOKED-KEY'],
            failed: ['AUTH-REVOKED-KEY'],
            caughtBy: ['AUTH-REVOKED-KEY'],
            caught: true,
            byChance: false,
            seeds: [{ seed: 1, failed: ['AUTH-REVOKED-KEY'], caughtBy: ['AUTH-REVOKED-KEY'], caught: true, exitCode: 1, duration_ms: 1 }],
            duration_ms: 1,
          },
          {
            fault: 'idempotency-ignores-body',
            description: 'x',
            control: false,
            areas: ['idempotency'],
            expected: ['IDEM-CONFLICT'],
            failed: [],
            caughtBy: [],
            caught: false,
            byChance: false,
            seeds: [{ seed: 1, failed: [], caughtBy: [], caught: false, exitCode: 0, duration_ms: 1 }],
            duration_ms: 1,
          },
        ],
      },
    });
    expect(html).toContain('Mutation score: 1/2 planted faults caught (50.0%)');
    expect(html).toContain('<tr class="missed"><td><b>MISSED</b></td><td><code>idempotency-ignores-body</code>');
    expect(html).toContain('a revoked key &lt;still&gt; works');
  });
});

describe('HTML renderer: side and certificate', () => {
  const cert = {
    tool: { name: 'hps-conformance', version: '0.1.0' }, description_document_version: '1.0.0',
    report_sha256: 'a'.repeat(64), profile_sha256: 'b'.repeat(64), seed: 1, base_url: 'http://t', verdict: 'not_conformant' as const,
    counts: {
      pass: 1,
      fail: 1,
      warn: 1,
      info: 0,
      skip: 1,
      error: 0,
      flaky: 0,
    }, must_coverage: { ran: 2, testable: 2, pct: 100 }, certification: true,
  };
  const full = { ...base, runs: 100, side: 'receiver' as const };

  it('shows the side and the certificate of an unfiltered default run', async () => {
    const { renderHtml } = await import('../results/render/html.ts');
    const html = renderHtml(full, { certificate: cert });
    expect(html).toContain('Side: <b id="side">receiver</b>');
    expect(html).toContain('<p class="cert ok" id="certification">Certification of a webhook receiver: <b>not_conformant</b></p>');
    expect(html).toContain(`<code>${'a'.repeat(64)}</code>`);
    expect(html).toContain('2 of 2 testable (100%)');
  });

  it('says plainly when a run is not a certification, and why', async () => {
    const { renderHtml } = await import('../results/render/html.ts');
    const reduced = renderHtml(base, { certificate: { ...cert, certification: false, not_certification_reason: 'ignored here' } });
    expect(reduced).toContain('<b>Not a certification.</b> 10 runs per property (a certification uses at least 100)');
    const filtered = renderHtml({ ...full, side: 'service', selection: { areas: ['auth'], rules: ['A-ONE'] } }, { certificate: cert });
    expect(filtered).toContain('<b>Not a certification.</b> filtered to area(s) auth; filtered to rule(s) A-ONE');
    expect(renderHtml({ ...full, side: 'service' })).toContain('<b>Not a certification.</b> no certificate.json next to this report');
    // A merchant-side report says what ran (never "filtered to area(s) receiver; 1 runs per property"), under its own heading.
    const merchant = renderHtml({ ...full, runs: 1, selection: { areas: ['receiver'], rules: [] } });
    expect(merchant).toMatch(/<b>Not a certification.<\/b> no certificate.json next to this receiver report; what ran: \d+ of \d+ testable MUST rules/);
    expect(merchant).not.toContain('runs per property');
    expect(merchant).toContain('<h1>Hosted Payment Service API v1 — merchant webhook receiver report</h1>');
    expect(renderHtml(
      full,
      { certificate: { ...cert, certification: false, not_certification_reason: 'MUST coverage 40% < 100%' } },
    )).toContain('MUST coverage 40% &lt; 100%');
    const md = renderMarkdown(base);
    expect(md).toContain('**Not a certification:** 10 runs per property');
  });
});

describe('HTML renderer: evidence order', () => {
  it('opens the failing exchange, after the diff and before the context exchanges', async () => {
    const { renderHtml } = await import('../results/render/html.ts');
    const ex = (seq: number) => ({
      seq,
      at: 'a',
      durationMs: 1,
      request: { method: 'POST', path: '/v1/payments', headers: { authorization: 'Bearer pt_test_sk_…abcd' }, body: '{"amount":10}' },
      response: { status: 201, headers: {}, body: '{"id":"pay_1"}' },
    });
    const html = renderHtml({ ...base, rules: [{ ...base.rules[0]!, evidence: [
      { kind: 'exchange', exchange: ex(1) },
      { kind: 'replay', command: 'replay-line' },
      { kind: 'exchange', exchange: ex(2), failing: true },
      { kind: 'mismatch', message: 'A-ONE: bad <thing>', expected: { status: 400 }, actual: { status: 201 } },
    ] }] });
    const at = (s: string) => html.indexOf(s);
    expect(at('<table class="diff">')).toBeGreaterThan(0);
    expect(at('<table class="diff">')).toBeLessThan(at('exchange #2'));
    expect(at('exchange #2')).toBeLessThan(at('exchange #1'));
    expect(at('exchange #1')).toBeLessThan(at('replay-line'));
    expect(html).toContain('<details class="ev exchange failing" open><summary><b>the failing exchange</b> exchange #2');
    expect(html).toContain('<details class="ev exchange"><summary>exchange #1');
    // The reason is printed once: the mismatch message repeating it is not shown again.
    expect(html.split('bad &lt;thing&gt;').length - 1).toBe(2); // the failures summary and the rule body
    expect(html).toContain('-H &quot;Authorization: Bearer $HPS_KEY&quot;');
  });
});
