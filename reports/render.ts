/** Renders every format from report.json alone: HTML, JUnit XML, Markdown. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderHtml } from './html.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';
import type { Report } from './report-types.ts';

export function renderAll(dir: string, report: Report = readReport(dir)): void {
  writeFileSync(join(dir, 'report.html'), renderHtml(report));
  writeFileSync(join(dir, 'junit.xml'), renderJunit(report));
  writeFileSync(join(dir, 'summary.md'), renderMarkdown(report));
}

export function readReport(dir: string): Report {
  return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
}
