/**
 * A report.json from someone else is untrusted input. Every string field of a report (top level,
 * rules, evidence of every kind, exchanges and their headers, observed values, tests, property
 * failures, timelines, the mutation section) and of certificate.json holds one classic payload in
 * turn; `report DIR` and `report --compare` render it into every format. report.html and
 * compare.html are opened in Chromium with a dialog and a console listener: nothing executes, no
 * element carries an event handler or a `javascript:` link, and each payload is shown as text.
 * junit.xml is valid XML with no control byte and no raw tag, summary.md neither, the GitHub
 * annotations stay one line each, and the terminal gets no escape byte. A number or enumeration
 * field holding a payload is refused by the schema (exit 2) before anything renders.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/chromium.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { githubAnnotations } from '../../cli/github.ts';
import { HarnessError } from '../../core/errors.ts';
import { inert } from '../../core/inert.ts';
import { readReportFile } from '../../core/report-file.ts';
import { renderCompare } from '../../results/render/compare.ts';
import { renderAll } from '../../results/render/render.ts';
import type { CertificateRead, Report } from '../../catalogue/report/model.ts';
import { runMain } from '../load/helpers.ts';
import { runChild } from '../support/run-child.ts';
import { xmllint } from '../support/xmllint.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const PWN = 'window.__pwned=(window.__pwned||0)+1;alert(1)';

export const PAYLOADS: readonly string[] = [
  `<script>${PWN}</script>`,
  `"><img src=x onerror="${PWN}">`,
  `'><svg onload=${PWN}>`,
  'javascript:alert(1)',
  `</script><script>${PWN}</script>`,
  'line\u2028separator\u2029paragraph',
  'nul\u0000byte',
  '\u001b[2Jscreen-clear',
  '\u001b]0;window-title\u0007',
  '\u001b]8;;http://evil.example/\u001b\\link\u001b]8;;\u001b\\',
  '\u202eevil-bidi\u202c\u2066isolate\u2069',
  '\u009b31mc1-csi\r\nCRLF',
  '[md-link](javascript:alert(1)) ![img](http://evil.example/x.png) | cell | `code` *em*\n# heading',
];

/** Fields whose value is an enumeration or a date-time: typed by the schema, tested apart (they refuse payloads). */
const TYPED = new Set(['kind', 'status', 'level', 'state', 'verdict', 'side', 'started_at', 'finished_at']);

/** Every string (and every key of the free-form maps) replaced by `p`; returns how many fields it filled. */
function fill(v: unknown, p: string, counter: { n: number }, key = ''): unknown {
  if (typeof v === 'string') {
    if (TYPED.has(key)) return v;
    counter.n++;
    return p;
  }
  if (Array.isArray(v)) return v.map((x) => fill(x, p, counter, key));
  if (v && typeof v === 'object') {
    const freeForm = ['observed', 'headers', 'expected', 'actual'].includes(key);
    return Object.fromEntries(Object.entries(v).map(([k, x], i) => {
      if (freeForm) counter.n++;
      return [freeForm ? `${p}${i}` : k, fill(x, p, counter, k)];
    }));
  }
  return v;
}

/** A report exercising every field the renderers read: each evidence kind, both exchange shapes, a certification. */
function template(): Report {
  const exchange = {
    seq: 3,
    at: 'a',
    durationMs: 4,
    request: { method: 'GET', path: '/p', headers: { authorization: 'h', 'x-a': 'h' }, body: 'b' },
    response: { status: 400, headers: { 'content-type': 'h' }, body: 'b' },
  };
  return {
    tool: {
      name: 'n',
      version: 'v',
    }, side: 'service', target: { base_url: 'http://u', embedded_reference: false }, run_id: 'r', seed: 7, runs: 100,
    started_at: '2026-11-21T00:00:00.000Z', finished_at: '2026-11-21T00:00:10.000Z', duration_ms: 10_000,
    selection: { areas: [], rules: [] }, verdict: 'not_conformant',
    summary: { pass: 1, fail: 1, warn: 1, info: 1, skip: 1, error: 1, flaky: 1 },
    must: { total: 4, testable: 3, untestable: 1, ran: 2, passed: 1, failed: 1, skipped: 1 }, requests: 42,
    stopped: 's', policy: { strict: false, failed_because: ['f'] },
    rules: [
      { id: 'i', area: 'a', level: 'MUST', status: 'fail', title: 't', spec: 's', reason: 'r', ruling: 'g', checks: 2,
        evidence: [
          {
            kind: 'mismatch',
            message: 'm',
            expected: { e: 'x', n: ['y'] },
            actual: { e: 'z', n: ['w'] },
            source: { rule: 'i', test: 't' },
          },
          { kind: 'mismatch', message: 'm', expected: 'x' },
          { kind: 'exchange', exchange, failing: true },
          {
            kind: 'exchange',
            exchange: {
              seq: 4,
              at: 'a',
              durationMs: 1,
              request: { method: 'POST', path: '/p', headers: { h: 'h' } },
              transportError: 't',
              outsideHttp: 'o',
            } as never,
          },
          { kind: 'property', seed: 1, runs: 2, path: 'p', counterexample: 'c', replayOutcome: 'o', shrinks: 3, shrink_note: 'n' },
          { kind: 'replay', command: 'c' },
          { kind: 'note', message: 'n' },
          { kind: 'timeline', event_id: 'e', label: 'l', attempts: [{ at_ms: 0, status: 's', gap_ms: 0 }, { at_ms: 5, status: 500, gap_ms: 5, expected_gap_ms: 30 }] },
        ],
        tests: [{ title: 't', state: 'fail', duration_ms: 12, requests: 3, error: 'e' }, { title: 't2', state: 'pass', duration_ms: 1, requests: 1 }] },
      { id: 'j', area: 'b', level: 'OBSERVE', status: 'info', title: 't', spec: 's', evidence: [], observed: { o: 'v', p: { q: 'v' } }, tests: [] },
      { id: 'k', area: 'b', level: 'SHOULD', status: 'warn', title: 't', spec: 's', reason: 'r', evidence: [{ kind: 'replay', command: 'c' }], tests: [] },
      { id: 'l', area: 'c', level: 'MUST', status: 'skip', title: 't', spec: 's', reason: 'r', untestable: true, evidence: [], tests: [] },
      { id: 'm', area: 'c', level: 'MUST', status: 'error', title: 't', spec: 's', reason: 'r', evidence: [], tests: [] },
      { id: 'n', area: 'c', level: 'MUST', status: 'flaky', title: 't', spec: 's', reason: 'r', evidence: [], tests: [] },
      { id: 'o', area: 'c', level: 'MUST', status: 'pass', title: 't', spec: 's', evidence: [], tests: [] },
    ],
    mutation: { seed: 1, seeds: [1], runs: 1, faults: 1, caught: 0, byChance: 0, score: 0, duration_ms: 1, unexercised: ['u'],
      results: [{ fault: 'f', description: 'd', control: false, areas: ['a'], expected: ['e'], failed: ['f'], caughtBy: [], caught: false, byChance: false, duration_ms: 1,
        seeds: [{ seed: 1, failed: ['f'], caughtBy: [], caught: false, exitCode: 1, duration_ms: 1, problem: 'p' }] }] },
  };
}

const certificate = (): CertificateRead => ({
  tool: { name: 'n', version: 'v' }, description_document_version: 'd', report_sha256: 's', profile_sha256: 'p', seed: 7, base_url: 'u',
  verdict: 'not_conformant', counts: template().summary, must_coverage: {
    ran: 2,
    testable: 3,
    pct: 66.7,
  }, certification: true, not_certification_reason: 'r',
});

interface Case { p: string; dirA: string; dirB: string; compare: string; fields: number; terminal: string }
const tmp = mkdtempSync(join(tmpdir(), 'hps-injection-'));
const cases: Case[] = [];
let browser: Browser;

function payloadReport(p: string): { report: Report; fields: number } {
  const counter = { n: 0 };
  const report = fill(template(), p, counter) as Report;
  // Bodies and counterexamples that parse as JSON take the pretty-printer's path; keep one of each.
  const ev = report.rules[0]!.evidence;
  (ev[2] as { exchange: { response: { body: string } } }).exchange.response.body = JSON.stringify({ [p]: p, n: [p] });
  (ev[4] as { counterexample: string }).counterexample = JSON.stringify([p, { [p]: p }]);
  return { report, fields: counter.n };
}

beforeAll(async () => {
  for (const [i, p] of PAYLOADS.entries()) {
    const { report, fields } = payloadReport(p);
    const dirA = join(tmp, `p${i}a`);
    const dirB = join(tmp, `p${i}b`);
    mkdirSync(dirA);
    mkdirSync(dirB);
    writeFileSync(join(dirA, 'report.json'), JSON.stringify(report));
    writeFileSync(join(dirA, 'certificate.json'), JSON.stringify(fill(certificate(), p, { n: 0 })));
    const other = structuredClone(report);
    for (const r of other.rules) if (r.status === 'fail') r.status = 'pass';
    other.rules[1]!.observed = { [p]: `${p}-other` };
    writeFileSync(join(dirB, 'report.json'), JSON.stringify(other));
    const a = await runMain(['report', dirA]);
    const b = await runMain(['report', dirB]);
    const compare = join(tmp, `p${i}-compare.html`);
    const c = await runMain(['report', '--compare', dirA, dirB, '--out', compare]);
    expect([a.code, b.code, c.code], a.err + b.err + c.err).toEqual([1, 1, 0]);
    cases.push({ p, dirA, dirB, compare, fields, terminal: a.out + a.err + b.out + b.err + c.out + c.err });
  }
  browser = await launchChromium();
}, 180_000);
afterAll(async () => browser?.close());

/** Opens a page with listeners; returns what ran and what the page shows. */
async function probe(file: string): Promise<{ dialogs: number; pwned: number; consoleErrors: string[]; handlers: string[]; jsLinks: number; scripts: number; text: string }> {
  const page = await browser.newPage();
  let dialogs = 0;
  const consoleErrors: string[] = [];
  page.on('dialog', (d) => {
    dialogs++;
    void d.dismiss();
  });
  page.on('console', (m) => consoleErrors.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
  await page.route(/^(?!file:)/, (route) => route.abort());
  await page.goto(`file://${file}`);
  // Open every <details> (an image or handler inside a closed one would load on opening).
  await page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
  await page.waitForTimeout(300);
  const seen = await page.evaluate(() => ({
    pwned: (window as unknown as { __pwned?: number }).__pwned ?? 0,
    handlers: [...document.querySelectorAll('*')].flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${el.tagName}[${a.name}]`)),
    jsLinks: [...document.querySelectorAll('[href],[src],[action],[formaction]')].filter((el) => /^\s*(javascript|data|vbscript):/i.test(el.getAttribute('href') ?? el.getAttribute('src') ?? el.getAttribute('action') ?? '')).length,
    scripts: document.querySelectorAll('script').length,
    text: document.documentElement.textContent ?? '',
  }));
  await page.close();
  return { dialogs, consoleErrors, ...seen };
}

describe('a report.json full of payloads, rendered into every format', () => {
  it('report.html and compare.html in Chromium: nothing executes, no handler or script link, every payload shown as text', async () => {
    let executions = 0;
    for (const c of cases) {
      for (const file of [join(c.dirA, 'report.html'), join(c.dirB, 'report.html'), c.compare]) {
        const r = await probe(file);
        executions += r.dialogs + r.pwned;
        expect(r.dialogs, `${file}: dialogs`).toBe(0);
        expect(r.pwned, `${file}: script ran`).toBe(0);
        expect(r.consoleErrors, file).toEqual([]);
        expect(r.handlers, file).toEqual([]);
        expect(r.jsLinks, file).toBe(0);
        expect(r.scripts, file).toBe(1);
        // What the page shows: the payload as text, control characters as their visible escapes.
        expect(r.text, `${file}: payload ${JSON.stringify(c.p)} not shown`).toContain(inert(c.p.replace(/\r\n/g, '\n')));
      }
    }
    expect(executions).toBe(0);
    console.log(`injection: ${PAYLOADS.length} payloads × ${cases[0]!.fields} string fields (+ certificate.json) × 6 formats (report.html, compare.html, junit.xml, summary.md, GitHub annotations, terminal); ${cases.length * 3} pages opened in Chromium, executions ${executions}`);
  }, 240_000);

  it('junit.xml: valid XML, no control character, no raw tag; summary.md: no control character, no raw HTML, one table row per rule', () => {
    const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
    for (const c of cases) {
      for (const dir of [c.dirA, c.dirB]) {
        const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
        const lint = xmllint(junit);
        expect(lint.ok, `${dir}/junit.xml: ${lint.out}`).toBe(true);
        expect(junit).not.toMatch(CONTROL);
        expect(junit).not.toMatch(/<(script|img|svg)\b/i);
        const md = readFileSync(join(dir, 'summary.md'), 'utf8');
        expect(md, `${dir}/summary.md`).not.toMatch(CONTROL);
        expect(md).not.toMatch(/<(script|img|svg|\/script)\b/i);
        // Outside code spans (where Markdown is shown as written), no link or image syntax survives.
        const prose = md.replace(/(`+)[\s\S]*?\1(?!`)/g, '');
        expect(prose).not.toMatch(/(?<!\\)\]\((?:javascript|http)/);
        const rows = md.split('\n').filter((l) => /^\| (FAIL|ERROR|FLAKY|WARN) \|/.test(l));
        expect(rows.length, md).toBe(dir === c.dirA ? 4 : 3);
        for (const row of rows) expect(row.split(/(?<!\\)\|/).length, row).toBe(7);
        expect(md.split('\n').filter((l) => /^#\s/.test(l)), md).toHaveLength(1);
      }
    }
  });

  it('the GitHub annotations stay one line each, without control characters', () => {
    for (const c of cases) {
      const lines = githubAnnotations(JSON.parse(readFileSync(join(c.dirA, 'report.json'), 'utf8')) as Report);
      expect(lines).toHaveLength(1);
      expect(lines[0]).not.toMatch(/[\r\n\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
    }
  });

  it('the terminal output of report and report --compare holds no escape or control byte', async () => {
    for (const c of cases) expect(c.terminal).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    // And through a real process, stdout and stderr bytes, with the OSC 8 payload in the directory names too.
    const osc = cases.find((c) => c.p.includes(']8;;'))!;
    const r = await runChild(
      process.execPath,
      [join(ROOT, 'bin', 'hps-conformance.mjs'), 'report', '--compare', osc.dirA, osc.dirB, '--out', join(tmp, `\u001b]0;t\u0007.html`)],
      { cwd: ROOT, timeoutMs: 60_000 },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toMatch(/[\u001b\u0007\u009b]/);
  }, 60_000);
});

const TYPED_PATHS: string[][] = [
    ['seed'], ['runs'], ['duration_ms'], ['requests'], ['verdict'], ['side'], ['started_at'], ['summary', 'fail'], ['must', 'ran'],
    [
      'rules',
      '0',
      'level',
    ], [
      'rules',
      '0',
      'status',
    ], ['rules', '0', 'checks'], ['rules', '0', 'tests', '0', 'state'], ['rules', '0', 'tests', '0', 'duration_ms'],
    ['rules', '0', 'tests', '0', 'requests'], ['rules', '0', 'evidence', '0', 'kind'], ['rules', '0', 'evidence', '2', 'exchange', 'seq'],
    ['rules', '0', 'evidence', '2', 'exchange', 'durationMs'], ['rules', '0', 'evidence', '2', 'exchange', 'response', 'status'],
    ['rules', '0', 'evidence', '4', 'seed'], ['rules', '0', 'evidence', '4', 'runs'], ['rules', '0', 'evidence', '4', 'shrinks'],
    ['rules', '0', 'evidence', '7', 'attempts', '1', 'gap_ms'], ['rules', '0', 'evidence', '7', 'attempts', '1', 'expected_gap_ms'],
    ['mutation', 'score'], ['mutation', 'caught'], ['mutation', 'results', '0', 'caught'],
];

function withTyped(p: string, path: readonly string[]): Record<string, unknown> {
  const r = template() as unknown as Record<string, unknown>;
  const parent = path.slice(0, -1).reduce<any>((o, k) => o[k], r);
  parent[path.at(-1)!] = p;
  return r;
}

describe('defence in depth: the renderers escape numbers and enumerations even in a report nobody validated', () => {
  it('every number and enumeration field holding a script payload, rendered in memory: 0 executions in Chromium', async () => {
    const dir = join(tmp, 'unvalidated');
    const other = join(tmp, 'unvalidated-b');
    mkdirSync(dir);
    mkdirSync(other);
    const payload = `<img src=x onerror="${PWN}">`;
    const r = template() as unknown as Record<string, unknown>;
    for (const path of TYPED_PATHS) {
      const parent = path.slice(0, -1).reduce<any>((o, k) => o[k], r);
      if (path.at(-1) !== 'kind') parent[path.at(-1)!] = payload;
    }
    for (const x of (r as unknown as Report).rules) Object.assign(x, { level: payload, status: payload });
    renderAll(dir, r as unknown as Report, { certificate: null });
    renderAll(other, template(), { certificate: null });
    const compare = join(tmp, 'unvalidated-compare.html');
    writeFileSync(compare, renderCompare([{ dir, report: r as unknown as Report }, { dir: other, report: template() }], compare));
    const counts: number[] = [];
    const handlers: string[] = [];
    for (const file of [join(dir, 'report.html'), compare]) {
      const seen = await probe(file);
      counts.push(seen.dialogs + seen.pwned);
      handlers.push(...seen.handlers);
    }
    console.log(`unvalidated report, ${TYPED_PATHS.length} number/enum fields + every rule's level and status holding a payload: executions ${counts[0]} in report.html, ${counts[1]} in compare.html`);
    expect(counts).toEqual([0, 0]);
    expect(handlers).toEqual([]);
  }, 60_000);
});

describe('a payload where a number or an enumeration is expected is refused by the schema', () => {
  const paths = TYPED_PATHS;

  it(`${paths.length} number and enumeration fields × ${PAYLOADS.length} payloads: exit 2 naming the path, every time`, async () => {
    let refused = 0;
    const d = join(tmp, 'typed');
    mkdirSync(d, { recursive: true });
    for (const path of paths) {
      for (const p of PAYLOADS) {
        writeFileSync(join(d, 'report.json'), JSON.stringify(withTyped(p, path)));
        try {
          readReportFile(d);
        } catch (e) {
          expect(e).toBeInstanceOf(HarnessError);
          expect((e as HarnessError).exitCode).toBe(2);
          const where = `$.${path.map((k) => (/^\d+$/.test(k) ? `[${k}]` : k)).join('.').replace(/\.\[/g, '[')}`;
          expect((e as Error).message).toContain(`${where}:`);
          expect((e as Error).message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
          refused++;
        }
      }
    }
    expect(refused).toBe(paths.length * PAYLOADS.length);
    const cli = await runMain(['report', d]);
    expect(cli.code).toBe(2);
  });
});
