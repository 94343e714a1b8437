/**
 * load.html and the `load compare` page in a real browser (Debian's chromium via playwright-core):
 * the plots are there and visible without a script, each with its title and legend; no request
 * leaves the page, no console error; at phone width the page itself does not scroll sideways.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadCompareCommand } from '../cli/load-compare-command.ts';
import { renderLoadHtml } from '../results/render/load-html.ts';
import { launchChromium } from './support/chromium.ts';
import { syntheticReport, writeLoadDir } from './load/plot-fixture.ts';

const dir = mkdtempSync(join(tmpdir(), 'hps-load-html-'));
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => browser?.close());

/** The page at `file`, with what it requested off file:// and the console errors it logged. */
async function open(file: string, width = 1100): Promise<{ page: Page; external: string[]; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width, height: 900 }, javaScriptEnabled: false });
  page.setDefaultTimeout(5000);
  const external: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => { if (!r.url().startsWith('file://')) external.push(r.url()); });
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`file://${file}`);
  return { page, external, errors };
}

describe('load.html in a browser', () => {
  const file = join(dir, 'load.html');
  writeFileSync(file, renderLoadHtml(syntheticReport('browser-run', { seconds: 6, rps: 150 })));

  it('shows latency over time, by percentile, throughput and errors as visible SVG with titles and legends', async () => {
    const { page, external, errors } = await open(file);
    const plots = page.locator('svg.plot');
    expect(await plots.count()).toBe(4);
    for (let i = 0; i < 4; i += 1) {
      const svg = plots.nth(i);
      expect(await svg.isVisible()).toBe(true);
      const box = (await svg.boundingBox())!;
      expect(box.width).toBeGreaterThan(300);
      expect(await svg.locator(':scope > title').count()).toBe(1);
      expect(await svg.locator(':scope > desc').count()).toBe(1);
    }
    expect(await page.locator('svg[aria-label="latency by percentile"] text', { hasText: '99.9%' }).count()).toBe(1);
    expect(await page.locator('svg[aria-label="latency by percentile"] polyline').count()).toBe(3);
    expect(await page.locator('ul.legend li', { hasText: 'create' }).first().isVisible()).toBe(true);
    expect(await page.locator('svg[aria-label="errors over time"] polyline').count()).toBe(3);
    expect(external).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('reads at phone width: the page does not scroll sideways, the plots shrink to fit', async () => {
    const { page } = await open(file, 420);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    const box = (await page.locator('svg.plot').first().boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(420);
    await page.close();
  });
});

describe('the load compare page in a browser', () => {
  it('overlays the runs, one labelled line each, with no request leaving the page', async () => {
    const a = writeLoadDir(join(dir, 'a'), syntheticReport('run-a', { seconds: 3, rps: 100 }));
    const b = writeLoadDir(join(dir, 'b'), syntheticReport('run-b', { seconds: 3, rps: 100, slow: 2, seed: 3 }));
    const out = join(dir, 'compare.html');
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      expect(await loadCompareCommand({ out }, [`${a}=baseline`, `${b}=candidate`])).toBe(0);
    } finally {
      log.mockRestore();
    }
    const { page, external, errors } = await open(out);
    const plots = page.locator('svg.plot');
    expect(await plots.count()).toBe(4);
    for (let i = 0; i < 4; i += 1) {
      expect(await plots.nth(i).isVisible()).toBe(true);
      expect(await plots.nth(i).locator('polyline').count()).toBe(2);
    }
    expect(await page.locator('ul.legend li', { hasText: 'candidate' }).first().isVisible()).toBe(true);
    expect(await page.locator('table td', { hasText: 'run-b' }).isVisible()).toBe(true);
    expect(external).toEqual([]);
    expect(errors).toEqual([]);
    await page.setViewportSize({ width: 420, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.close();
  });
});
