/**
 * The HTML report in a real browser (Debian's chromium via playwright-core):
 * it renders from report.json alone, shows the verdict and counts, opens
 * failures with their evidence and replay line, filters by status, needs no
 * network, and carries no secret. A failing report from a real run: the
 * failures summary links to the failure, the diff shows the differing path,
 * it reads at phone width; screenshots are saved (paths printed).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from './support/chromium.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderAll } from '../results/render/render.ts';
import type { Report } from '../catalogue/report/model.ts';
import { reportCommand } from '../cli/report-command.ts';
import { compareDirs } from './reports/compare-dirs.ts';
import { enrichedFailingReport } from './reports/failing-report.ts';

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
        {
          kind: 'mismatch',
          message: 'GET /v1/payments answered 200 <script>alert(1)</script>',
          expected: { status: 401 },
          actual: { status: 200 },
        },
        {
          kind: 'exchange',
          exchange: {
            seq: 3,
            at: '2026-11-21T00:00:01Z',
            durationMs: 4,
            request: { method: 'GET', path: '/v1/payments', headers: { authorization: 'Bearer pt_test_sk_…abcd' } },
            response: { status: 200, headers: {}, body: '{"object":"list"}' },
          },
        },
        { kind: 'replay', command: 'hps-conformance run --profile p.json --rule AUTH-REVOKED-KEY --seed 7' },
      ],
      tests: [{
        title: 'AUTH-REVOKED-KEY: A revoked key answers 401.',
        state: 'fail',
        duration_ms: 12,
        requests: 3,
        error: 'answered 200',
      }] },
    {
      id: 'AUTH-MISSING-KEY',
      area: 'auth',
      level: 'MUST',
      status: 'pass',
      title: 'Missing key answers 401.',
      spec: 'Authentication',
      evidence: [],
      tests: [],
    },
    {
      id: 'LIST-SORT-ORDER',
      area: 'listing',
      level: 'OBSERVE',
      status: 'info',
      title: 'Records the sort order.',
      spec: 'Endpoints',
      evidence: [],
      observed: { order: 'created_at desc' },
      tests: [],
    },
    {
      id: 'LIVE-NO-CREDIT',
      area: 'live',
      level: 'MUST',
      status: 'skip',
      title: 'No credit answers 409.',
      spec: 'Errors',
      reason: 'profile lacks keys.live_no_credit',
      evidence: [],
      tests: [],
    },
  ],
};

let browser: Browser;
const dir = mkdtempSync(join(tmpdir(), 'hps-html-'));

beforeAll(async () => {
  writeFileSync(join(dir, 'report.json'), JSON.stringify(report));
  renderAll(dir);
  browser = await launchChromium();
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

describe('a failing report from a real run, in a browser', () => {
  const fdir = mkdtempSync(join(tmpdir(), 'hps-html-fail-'));
  const shots = join(tmpdir(), 'hps-report-screenshots');
  mkdirSync(shots, { recursive: true });
  writeFileSync(join(fdir, 'report.json'), JSON.stringify(enrichedFailingReport()));
  renderAll(fdir);
  const url = `file://${join(fdir, 'report.html')}`;

  it('links from the failures summary to the failure, whose diff shows the differing path', async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    page.setDefaultTimeout(5000);
    const external: string[] = [];
    page.on('request', (r) => { if (!r.url().startsWith('file://')) external.push(r.url()); });
    await page.goto(url);
    // Failures first: the summary lists every FAIL/FLAKY rule before any rule body.
    const listed = await page.$$eval('#failures ol.fails li a', (as) => as.map((a) => a.getAttribute('href')));
    expect(listed).toEqual(expect.arrayContaining(['#CREATE-FIELDS-ECHOED', '#CREATE-AMOUNT-DECIMAL-EXACT', '#HOOK-RETRY-SCHEDULE', '#LIST-LIMIT-RANGE']));
    expect(await page.textContent('#tally')).toContain('webhooks');
    const summaryShot = join(shots, 'failures-summary.png');
    await page.locator('#failures').screenshot({ path: summaryShot });
    console.log(`screenshot (failures summary): ${summaryShot}`);

    await page.click('#failures a[href="#CREATE-FIELDS-ECHOED"]');
    expect(new URL(page.url()).hash).toBe('#CREATE-FIELDS-ECHOED');
    const rule = page.locator('#CREATE-FIELDS-ECHOED');
    expect(await rule.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    // Scrolled to: the rule's own summary line is in the viewport.
    const top = await rule.locator(':scope > summary').evaluate((e) => e.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(-1);
    expect(top).toBeLessThan(900);
    // The diff names the one differing path and highlights it in both pretty-printed bodies.
    expect(await rule.locator('table.diff code.path').allTextContents()).toEqual(['$.amount']);
    const marks = rule.locator('mark.d[data-path="$.amount"]');
    expect(await marks.count()).toBe(2);
    expect(await marks.first().isVisible()).toBe(true);
    expect(await marks.nth(1).textContent()).toContain('12345678901234568.00');
    // The reason is printed once in the rule's body.
    const bodyText = (await rule.locator('.body').textContent()) ?? '';
    expect(bodyText.split('property failed after 1 run(s)').length - 1).toBe(1);
    const diffShot = join(shots, 'failure-diff.png');
    await rule.screenshot({ path: diffShot });
    console.log(`screenshot (a diff): ${diffShot}`);

    // Copy as curl: the key is $HPS_KEY, never a key-shaped value.
    await rule.locator('details.exchange > summary').first().click();
    const curl = (await rule.locator('pre.copy').first().textContent()) ?? '';
    expect(curl).toMatch(/^curl -sS -i -X 'POST' 'http:\/\/127\.0\.0\.1:\d+\/v1\/payments' .*-H "Authorization: Bearer \$HPS_KEY"/);
    expect(curl).not.toMatch(/pt_(test|live)_sk_/);

    // Webhook timeline as inline SVG, the early retry marked; the unshrinkable counterexample says why.
    const hook = page.locator('#HOOK-RETRY-SCHEDULE');
    expect(await hook.locator('svg.timeline circle').count()).toBe(4);
    expect(await hook.locator('svg.timeline text.early').textContent()).toBe('120 ms');
    expect(await hook.locator('.shrink-note').textContent()).toContain('shrinking was turned off');
    // Ambient explained where it appears, with its source.
    await page.click('#failures a[href="#RESP-CACHE-NO-STORE"]');
    await page.waitForSelector('#RESP-CACHE-NO-STORE .ambient-src a[href="#CREATE-FIELDS-ECHOED"]', { state: 'visible' });
    expect(await page.isVisible('#about-ambient')).toBe(true);
    // OBSERVE results gathered; the filtered run is not a certification.
    expect(await page.textContent('#observed h2')).toBe('What this implementation does where the spec is silent');
    expect(await page.textContent('#observed')).toContain('CREATE-DESCRIPTION-LENGTH');
    expect(await page.textContent('#certification')).toContain('Not a certification');
    expect(external).toEqual([]);
    await page.close();
  });

  it('reads at phone width: nothing wider than the screen, no badge broken over two lines', async () => {
    const page = await browser.newPage({ viewport: { width: 420, height: 900 } });
    page.setDefaultTimeout(5000);
    await page.goto(`${url}#CREATE-FIELDS-ECHOED`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const badges = await page.$$eval(
      '.badge',
      (bs) => bs.filter((b) => (b as HTMLElement).offsetParent !== null).map((b) => ({
        h: b.getBoundingClientRect().height,
        lh: parseFloat(getComputedStyle(b).lineHeight) || 18,
      })),
    );
    expect(badges.length).toBeGreaterThan(10);
    for (const b of badges) expect(b.h).toBeLessThan(b.lh * 1.5);
    // A count keeps its badge and number on one line.
    expect(await page.$$eval('#counts .count', (cs) => cs.map((c) => c.getClientRects().length))).toEqual([1, 1, 1, 1, 1, 1, 1]);
    const phoneShot = join(shots, 'phone-420.png');
    await page.screenshot({ path: phoneShot });
    console.log(`screenshot (420 px): ${phoneShot}`);
    await page.close();
  });
});

describe('the comparison page in a browser', () => {
  it('links a cell to that report\'s rule, opened; filters to the rules that differ', async () => {
    const { dirs, out } = compareDirs();
    expect(await reportCommand({ compare: true, out }, dirs)).toBe(0);
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    page.setDefaultTimeout(5000);
    await page.goto(`file://${out}`);
    const shot = join(tmpdir(), 'hps-report-screenshots', 'compare.png');
    await page.screenshot({ path: shot });
    console.log(`comparison page: ${out}\nscreenshot (comparison): ${shot}`);
    await page.check('#only-diff');
    expect(await page.isVisible('#CREATE-METADATA-TOO-MANY-KEYS')).toBe(true);
    expect(await page.isVisible('#CREATE-AMOUNT-MISSING')).toBe(false);
    await page.click('#CREATE-FIELDS-ECHOED td.c-fail a');
    await page.waitForURL(/amount-through-float\/report\.html#CREATE-FIELDS-ECHOED$/);
    expect(await page.locator('#CREATE-FIELDS-ECHOED').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    expect(await page.textContent('#verdict')).toBe('NOT CONFORMANT');
    // At phone width the matrix scrolls inside its box; the page itself does not.
    await page.setViewportSize({ width: 420, height: 900 });
    await page.goto(`file://${out}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.close();
  });
});
