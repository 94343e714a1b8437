/**
 * The HTML report in a real browser (Debian's chromium via playwright-core):
 * it renders from report.json alone, shows the verdict and counts, opens
 * failures with their evidence and replay line, filters by status, needs no
 * network, and carries no secret.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderAll } from '../reports/render.ts';
import type { Report } from '../reports/report-types.ts';

const report: Report = {
  tool: { name: 'hps-conformance', version: '0.1.0' },
  target: { base_url: 'http://127.0.0.1:4010', embedded_reference: false },
  run_id: 'crtest', seed: 7, runs: 100,
  started_at: '2026-11-21T00:00:00.000Z', finished_at: '2026-11-21T00:00:10.000Z', duration_ms: 10_000,
  selection: { areas: [], rules: [] },
  verdict: 'not_conformant',
  summary: { pass: 1, fail: 1, warn: 0, info: 1, skip: 1, error: 0, flaky: 0 },
  must: { total: 4, testable: 3, untestable: 1, ran: 2, passed: 1, failed: 1, skipped: 1 },
  requests: 42,
  rules: [
    { id: 'AUTH-REVOKED-KEY', area: 'auth', level: 'MUST', status: 'fail', title: 'A revoked key answers 401.', spec: 'Authentication',
      reason: 'GET /v1/payments answered 200, expected 401 invalid_api_key',
      evidence: [
        { kind: 'mismatch', message: 'GET /v1/payments answered 200 <script>alert(1)</script>', expected: { status: 401 }, actual: { status: 200 } },
        { kind: 'exchange', exchange: { seq: 3, at: '2026-11-21T00:00:01Z', durationMs: 4, request: { method: 'GET', path: '/v1/payments', headers: { authorization: 'Bearer pt_test_sk_…abcd' } }, response: { status: 200, headers: {}, body: '{"object":"list"}' } } },
        { kind: 'replay', command: 'hps-conformance run --profile p.json --rule AUTH-REVOKED-KEY --seed 7' },
      ],
      tests: [{ title: 'AUTH-REVOKED-KEY: A revoked key answers 401.', state: 'fail', duration_ms: 12, requests: 3, error: 'answered 200' }] },
    { id: 'AUTH-MISSING-KEY', area: 'auth', level: 'MUST', status: 'pass', title: 'Missing key answers 401.', spec: 'Authentication', evidence: [], tests: [] },
    { id: 'LIST-SORT-ORDER', area: 'listing', level: 'OBSERVE', status: 'info', title: 'Records the sort order.', spec: 'Endpoints', evidence: [], observed: { order: 'created_at desc' }, tests: [] },
    { id: 'LIVE-NO-CREDIT', area: 'live', level: 'MUST', status: 'skip', title: 'No credit answers 409.', spec: 'Errors', reason: 'profile lacks keys.live_no_credit', evidence: [], tests: [] },
  ],
};

let browser: Browser;
const dir = mkdtempSync(join(tmpdir(), 'hps-html-'));

beforeAll(async () => {
  writeFileSync(join(dir, 'report.json'), JSON.stringify(report));
  renderAll(dir);
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
}, 60_000);
afterAll(async () => browser?.close());

describe('HTML report in a browser', () => {
  it('shows verdict, counts, failures with evidence and replay, and filters', async () => {
    const page = await browser.newPage();
    const external: string[] = [];
    page.on('request', (r) => { if (!r.url().startsWith('file://')) external.push(r.url()); });
    const dialogs: string[] = [];
    page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
    await page.goto(`file://${join(dir, 'report.html')}`);
    expect(await page.textContent('#verdict')).toBe('NOT CONFORMANT');
    expect(await page.textContent('body')).toContain('MUST rules: 2 of 3 testable ran');
    // The failure is open, with its replay line and the exchange.
    expect(await page.isVisible('text=hps-conformance run --profile p.json --rule AUTH-REVOKED-KEY --seed 7')).toBe(true);
    expect(await page.isVisible('#AUTH-REVOKED-KEY >> text=expected')).toBe(true);
    // Filtering by status hides the others.
    await page.selectOption('#f-status', 'info');
    expect(await page.isVisible('#LIST-SORT-ORDER')).toBe(true);
    expect(await page.isVisible('#AUTH-REVOKED-KEY')).toBe(false);
    await page.selectOption('#f-status', '');
    await page.fill('#f-text', 'credit');
    expect(await page.isVisible('#LIVE-NO-CREDIT')).toBe(true);
    expect(await page.isVisible('#AUTH-MISSING-KEY')).toBe(false);
    // Escaped, self-contained, no secret.
    expect(dialogs).toEqual([]);
    expect(external).toEqual([]);
    const html = await page.content();
    expect(html).not.toMatch(/pt_test_sk_[A-Za-z0-9]{5,}/);
    await page.close();
  });
});
