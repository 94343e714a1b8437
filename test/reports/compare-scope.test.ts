/**
 * `report --compare` shows scope: one row per conformance class with the certification scope per
 * column, so a URL-only run that certified `core` alone never reads like a full certification
 * (before: both columns said "conformant · certification"); the header says incomplete when that is
 * the verdict; reports of different sides are refused with one line and exit 2 (before: one table).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { selectRules, type Rule } from '../../catalogue/index.ts';
import { reportCommand } from '../../cli/report-command.ts';
import { HarnessError } from '../../core/errors.ts';
import type { Report, RuleReport } from '../../catalogue/report/model.ts';
import { mustCounts } from '../../catalogue/report/must-counts.ts';
import { buildCertificate } from '../../results/verdict/certificate.ts';
import { classVerdicts } from '../../results/verdict/classes.ts';
import { applyVerdictPolicy } from '../../results/verdict/policy.ts';
import { tallyStatuses } from '../../results/verdict/summary.ts';

/** A service report as `run` writes it, every rule decided by `status(rule)`, with its certificate, in a fresh dir. */
function reportDir(
  root: string,
  name: string,
  status: (r: Rule) => RuleReport['status'],
  reason = (r: Rule) => `profile lacks ${((r.needs ?? []) as readonly string[]).join(', ')}`,
): string {
  const rules: RuleReport[] = selectRules({}).map((r) => {
    const s = r.untestable ? 'skip' : status(r);
    return {
      id: r.id, area: r.area, level: r.level, status: s, title: r.requirement, spec: r.section, evidence: [],
      ...(r.untestable ? { untestable: true, reason: 'not exercisable' } : s === 'skip' ? { reason: reason(r) } : {}),
      tests: [{
        title: `${r.id}: t`,
        state: s === 'pass' || s === 'info' ? 'pass' : s === 'fail' ? 'fail' : 'skip',
        duration_ms: 1,
        requests: 1,
      }],
    };
  });
  const report: Report = {
    tool: {
      name: 'hps-conformance',
      version: '0.1.0',
    }, target: { base_url: 'http://127.0.0.1:4010', embedded_reference: false }, run_id: name, seed: 7, runs: 100,
    started_at: '2026-01-01T00:00:00.000Z', finished_at: '2026-01-01T00:01:00.000Z', duration_ms: 60000, selection: {
      areas: [],
      rules: [],
    },
    verdict: 'conformant', summary: tallyStatuses(rules), must: mustCounts(rules), requests: 10, rules,
  };
  applyVerdictPolicy(report, {});
  report.classes = classVerdicts(report);
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  const json = JSON.stringify(report);
  writeFileSync(join(dir, 'report.json'), json);
  writeFileSync(join(dir, 'certificate.json'), JSON.stringify(buildCertificate(report, json, null)));
  return dir;
}

const allPass = (r: Rule) => (r.level === 'OBSERVE' ? 'info' : 'pass');
const urlOnly = (r: Rule) => (r.needs?.length ? 'skip' : allPass(r));
const heads = (html: string) => [...html.matchAll(/<th class="impl">([\s\S]*?)<\/th>/g)].map((m) => m[1]!);
const classCells = (html: string, id: string) =>
  [...(new RegExp(`<tr class="class-row" id="class-${id}">([\\s\\S]*?)</tr>`).exec(html)?.[1] ?? '').matchAll(/<td[^>]*data-class-status="(\w+)"[^>]*>([\s\S]*?)<\/td>/g)].map((m) => `${m[1]}${/certified/.test(m[2]!) ? ' certified' : ''}`);

describe('report --compare shows the certification scope', () => {
  it('a URL-only run that certified core alone against a full certification: one row per class, the scope in each header', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hps-compare-scope-'));
    const out = join(root, 'compare.html');
    expect(await reportCommand({ compare: true, out }, [reportDir(root, 'full', allPass), reportDir(root, 'url-only', urlOnly)])).toBe(0);
    const html = readFileSync(out, 'utf8');
    const [full, url] = heads(html);
    expect(full).toContain('certifies 10 of 10 classes: core, scopes,');
    expect(url).toContain('certifies 1 of 10 classes: core');
    expect(url).not.toMatch(/>certification</);
    expect(html.match(/<tr class="class-row"/g)).toHaveLength(10);
    expect(classCells(html, 'core')).toEqual(['conformant certified', 'conformant certified']);
    expect(classCells(html, 'isolation-live')).toEqual(['conformant certified', 'not_tested']);
    expect(html).toContain('needs keys.live');
  });

  it('an incomplete report says incomplete in its header, never conformant', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hps-compare-scope-'));
    const out = join(root, 'compare.html');
    const notProven = (r: Rule) => (r.id === 'AUTH-MALFORMED-KEY' ? 'skip' : allPass(r));
    await reportCommand(
      { compare: true, out },
      [reportDir(root, 'full', allPass), reportDir(root, 'unproven', notProven, () => '0 checks made')],
    );
    const [, unproven] = heads(readFileSync(out, 'utf8'));
    expect(unproven).toContain('<div class="v-warn vsmall">incomplete</div>');
  });

  it('reports of different sides are refused: one line, exit 2', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hps-compare-scope-'));
    const service = reportDir(root, 'svc', allPass);
    const receiver = reportDir(root, 'recv', allPass);
    const r = JSON.parse(readFileSync(join(receiver, 'report.json'), 'utf8')) as Report;
    writeFileSync(
      join(receiver, 'report.json'),
      JSON.stringify({ ...r, side: 'receiver', rules: [], classes: [], summary: tallyStatuses([]), must: mustCounts([]) }),
    );
    const e = await reportCommand(
      { compare: true, out: join(root, 'c.html') },
      [service, receiver],
    ).then(() => undefined, (x: unknown) => x as HarnessError);
    expect(e).toBeInstanceOf(HarnessError);
    expect(e!.exitCode).toBe(2);
    expect(e!.message).toBe('report --compare: the reports are of different sides (svc (service), recv (receiver)): compare reports of one side at a time');
  });
});
