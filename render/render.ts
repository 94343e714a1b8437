/** Renders every format from report.json (and certificate.json when present) alone: HTML, JUnit XML, Markdown. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCertificate } from './certificate.ts';
import { renderHtml } from './html.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';
import type { Report } from '../report/model.ts';

export interface RenderOptions {
  /** JUnit: WARN, FLAKY and skipped testable MUST rules become failures. */
  strict?: boolean;
}

export function renderAll(dir: string, report: Report = readReport(dir), opts: RenderOptions = {}): void {
  const certificate = readCertificate(dir);
  writeFileSync(join(dir, 'report.html'), renderHtml(report, { certificate }));
  writeFileSync(join(dir, 'junit.xml'), renderJunit(report, { strict: opts.strict }));
  writeFileSync(join(dir, 'summary.md'), renderMarkdown(report, { certificate }));
}

export function readReport(dir: string): Report {
  return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
}
