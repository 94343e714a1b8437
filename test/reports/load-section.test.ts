/**
 * The load section of the conformance report: `run --report DIR` then `load --report DIR` gives
 * one report.html (and summary.md, junit.xml) with the load run's figures, series, thresholds and
 * checks, apart from the rules; report.json (what a certificate hashes) is untouched; `report DIR`
 * renders it again; a broken load.json or report.json is one clear line. The section reads at
 * phone width in a real browser.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium } from '../support/chromium.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { readLoadJson, reportDir, runMain, UNREDACTED_KEY } from '../load/helpers.ts';
import { xmllint } from '../support/xmllint.ts';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'report-create-clean.json');
const freshDir = (name: string): string => {
  const d = reportDir(name);
  mkdirSync(d, { recursive: true });
  return d;
};
const sha = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('the load section of the conformance report', () => {
  const dir = freshDir('beside');
  let loadOut = '';
  let reportHash = '';
  beforeAll(async () => {
    copyFileSync(FIXTURE, join(dir, 'report.json'));
    reportHash = sha(join(dir, 'report.json'));
    const r = await runMain([
      'load',
      '--scenario',
      'mixed',
      '--duration',
      '1',
      '--warmup',
      '0',
      '--connections',
      '2',
      '--workers',
      '1',
      '--max-p99-ms',
      '60000',
      '--report',
      dir,
    ]);
    expect(r.code, r.out + r.err).toBe(0);
    loadOut = r.out;
  }, 60_000);

  it('a load run into a directory holding report.json adds its section to report.html, summary.md and junit.xml', () => {
    expect(loadOut).toContain(`the conformance report beside it has the load section: ${join(dir, 'report.html')}`);
    const load = readLoadJson(dir);
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    const section = html.slice(html.indexOf('<section class="load" id="load">'), html.indexOf('</section>', html.indexOf('id="load"')));
    expect(section).toContain(`Load run <code>${load.run_id}</code>: <span class="pass">PASS</span>`);
    expect(section).toMatch(/<th>p99\.99 ms<\/th>/);
    expect(section).toMatch(/<svg[^>]*aria-label="latency over time"[\s\S]*<polyline/);
    for (const t of load.thresholds) expect(section).toContain(`<td>${t.id}</td>`);
    for (const c of load.checks) expect(section).toContain(`<td>${c.id}</td>`);
    // Apart from the rules: the verdict and the rules are the report's own, before the section as after.
    expect(html).toContain('id="verdict">CONFORMANT');
    expect(html.indexOf('id="load"')).toBeLessThan(html.indexOf('<h2>All rules</h2>'));
    expect(sha(join(dir, 'report.json'))).toBe(reportHash);

    const md = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(md).toContain(`## Load run ${load.run_id}: PASS`);
    expect(md).toMatch(/^\| overall \| \d+/m);

    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    for (const file of ['junit.xml', 'load.junit.xml']) {
      const lint = xmllint(readFileSync(join(dir, file), 'utf8'));
      expect(lint.ok, `${file}: ${lint.out}`).toBe(true);
    }
    expect(junit).toContain(`<testsuite name="load ${load.run_id}"`);
    const rules = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).rules.length;
    const loadCases = load.thresholds.length + load.checks.length;
    expect(junit).toMatch(new RegExp(`<testsuites name="hps-conformance" tests="${rules + loadCases}"`));
    expect((junit.match(/classname="load\.(thresholds|checks)"/g) ?? []).length).toBe(loadCases);
    for (const text of [html, md, junit]) expect(text).not.toMatch(UNREDACTED_KEY);
  });

  it('`report DIR` renders it again from report.json and load.json', async () => {
    rmSync(join(dir, 'report.html'));
    const r = await runMain(['report', dir]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('with the load run beside it (load.json)');
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('id="load"');
  });

  it('reads at phone width in a browser: nothing wider than the screen', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 420, height: 900 } });
      page.setDefaultTimeout(5000);
      await page.goto(`file://${join(dir, 'report.html')}#load`);
      expect(await page.isVisible('#load svg')).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('a load.json that is not one: `report DIR` says so in one line (exit 2); a load run beside a broken report.json leaves it and says so', async () => {
    const bad = freshDir('bad-load');
    copyFileSync(FIXTURE, join(bad, 'report.json'));
    writeFileSync(join(bad, 'load.json'), '{"kind":"something else"}');
    const r = await runMain(['report', bad]);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toContain(`${join(bad, 'load.json')} is not a load.json`);

    const broken = freshDir('bad-report');
    writeFileSync(join(broken, 'report.json'), '{ not json');
    const l = await runMain([
      'load',
      '--scenario',
      'read',
      '--duration',
      '1',
      '--warmup',
      '0',
      '--connections',
      '1',
      '--workers',
      '1',
      '--max-p99-ms',
      '60000',
      '--report',
      broken,
    ]);
    expect(l.code, l.out + l.err).toBe(0);
    expect(l.out).toContain(`the conformance report beside it was left as it was: ${join(broken, 'report.json')} could not be read`);
    expect(readFileSync(join(broken, 'report.json'), 'utf8')).toBe('{ not json');
  }, 60_000);
});
