/**
 * The load section of the conformance report. A load run written into a directory that holds a
 * conformance report.json (`run --report DIR`, then `load --report DIR`) re-renders report.html,
 * summary.md and junit.xml with the load run's figures, thresholds and checks; `report DIR`
 * does the same whenever load.json is there. The section stands apart from the rules: the load
 * verdict never changes the conformance verdict (report.json and its certificate are untouched).
 */
import { existsSync } from 'node:fs';
import { readCappedText } from '../core/read-capped.ts';
import { REPORT_MAX_BYTES } from '../core/report-file.ts';
import { join } from 'node:path';
import { HarnessError } from '../core/errors.ts';
import { readReportFile } from '../core/report-file.ts';
import { renderAll, type CompanionSections } from '../results/render/render.ts';
import { esc } from '../results/render/escape.ts';
import { inertLine } from '../core/inert.ts';
import { stripUserInfo } from '../core/redact.ts';
import type { Report } from '../catalogue/report/model.ts';
import { loadSectionsHtml } from '../results/render/load-html.ts';
import { loadTestsuite } from '../results/render/load-junit.ts';
import { loadSectionsMarkdown } from '../results/render/load-markdown.ts';
import type { LoadReport } from './report.ts';

/** A base URL as a target's name: no user-info, no trailing slash, the host's case folded. */
function targetName(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`.toLowerCase();
  } catch {
    return url.replace(/\/+$/, '').toLowerCase();
  }
}

/** Both runs name the same target: the same base URL, or both the embedded reference server (its port differs per run). */
export function sameTarget(load: LoadReport['target'], report: Report['target']): boolean {
  if (load?.embedded && report.embedded_reference) return true;
  if (load?.embedded || report.embedded_reference) return false;
  return typeof load?.base_url === 'string' && targetName(load.base_url) === targetName(report.base_url);
}

/**
 * DIR/load.json as the conformance report's load section; undefined when there is none, or when it
 * names another target than `report` (a foreign load.json: ignored, `note` says so).
 */
export function loadCompanion(
  dir: string,
  report: Report,
  note: (line: string) => void = (l) => console.error(inertLine(l)),
): CompanionSections | undefined {
  const file = join(dir, 'load.json');
  if (!existsSync(file)) return undefined;
  let r: LoadReport;
  try {
    r = JSON.parse(readCappedText(file, REPORT_MAX_BYTES, 'report', 'HPS_ERR_REPORT')) as LoadReport;
    if (
      r?.kind !== 'load' ||
      !Array.isArray(r.checks) ||
      !Array.isArray(r.thresholds) ||
      typeof r.run_id !== 'string'
    ) throw new Error('not the kind, checks and thresholds a load run writes');
  } catch (e) {
    throw new HarnessError('HPS_ERR_REPORT', `report: ${file} is not a load.json (${(e as Error).message})`);
  }
  if (!sameTarget(r.target, report.target)) {
    note(`${file} names another target (${stripUserInfo(String(r.target?.base_url))}) than report.json ` +
      `(${stripUserInfo(report.target.base_url)}): left out of the report`);
    return undefined;
  }
  // A closed set of words and classes: the file is read back, never trusted.
  const [verdict, css] = r.verdict === 'pass' ? ['PASS', 'pass'] : r.verdict === 'incomplete' ? ['INCOMPLETE', 'warn'] : ['FAIL', 'fail'];
  const apart = `The load run ${r.run_id} against the same target, from ${r.started_at} to ${r.finished_at} (the conformance ` +
    `run: ${report.started_at} to ${report.finished_at}), written beside this report and judged apart: its thresholds and checks never ` +
    `change the conformance verdict.`;
  return {
    html: `<section class="load" id="load"><h2>Load run <code>${esc(r.run_id)}</code>: <span class="${css}">${verdict}</span></h2><p class="meta">${esc(apart)} The same on its own page: <a href="load.html">load.html</a>.</p>${loadSectionsHtml(r, 3)}</section>`,
    markdown: {
      lines: [`## Load run ${r.run_id}: ${verdict}`, '', apart, '', ...loadSectionsMarkdown(r), ''],
      fallback: `Load run ${r.run_id}: ${verdict} (its tables do not fit this summary's cap: see load.md).`,
    },
    junit: loadTestsuite(r),
  };
}

/**
 * After a load run wrote DIR/load.json: the conformance report in DIR, if any, is rendered again
 * with the load section. Returns the line to print (null when DIR holds no report.json); a
 * report.json it cannot read is said in that line, never thrown: the load run's own files stand.
 */
export function addToConformanceReport(dir: string): string | null {
  if (!existsSync(join(dir, 'report.json'))) return null;
  try {
    // report.json may not be ours (the directory was given): validated like `report DIR` does.
    const report = readReportFile(dir);
    const notes: string[] = [];
    const companion = loadCompanion(dir, report, (l) => notes.push(l));
    if (!companion) return `the conformance report beside it was left as it was: ${notes.join('; ') || 'no load section'}`;
    renderAll(dir, report, { companion });
    return `the conformance report beside it has the load section: ${join(dir, 'report.html')} (+ summary.md, junit.xml)`;
  } catch (e) {
    return `the conformance report beside it was left as it was: ${join(dir, 'report.json')} could not be read (${(e as Error).message})`;
  }
}
