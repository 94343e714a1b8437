/** Renders every format from report.json (and certificate.json when present) alone: HTML, JUnit XML, Markdown. */
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../../core/safe-write.ts';
import { join } from 'node:path';
import { readCertificate } from './certificate.ts';
import { renderHtml } from './html.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';
import type { CertificateRead, Report } from '../../catalogue/report/model.ts';

/**
 * What another run in the same directory adds to the report, rendered by its own code (the load
 * run beside it: load/in-report.ts). Shown apart from the rules: it never changes the verdict.
 */
export interface CompanionSections {
  /** An HTML fragment (a `<section>`), escaped by its renderer. */
  html: string;
  /** Markdown lines, and the one line said instead when they do not fit the summary's cap. */
  markdown: { lines: string[]; fallback: string };
  /** One JUnit `<testsuite>` element, with its testcase and failure counts. */
  junit: { xml: string; tests: number; failures: number };
}

export interface RenderOptions {
  /** JUnit: WARN, FLAKY and skipped testable MUST rules become failures. Default: as the run judged (`run --strict`, report.policy). */
  strict?: boolean;
  companion?: CompanionSections;
  /** certificate.json as the caller read (and validated) it; null: none. Default: read from DIR. */
  certificate?: CertificateRead | null;
}

export function renderAll(dir: string, report: Report = readReport(dir), opts: RenderOptions = {}): void {
  const certificate = opts.certificate === undefined ? readCertificate(dir) : opts.certificate ?? undefined;
  const companion = opts.companion;
  writeFileAtomic(join(dir, 'report.html'), renderHtml(report, { certificate, companionHtml: companion?.html }));
  writeFileAtomic(
    join(dir, 'junit.xml'),
    renderJunit(report, { strict: opts.strict ?? report.policy?.strict ?? false, companion: companion?.junit }),
  );
  writeFileAtomic(join(dir, 'summary.md'), renderMarkdown(report, { certificate, companion: companion?.markdown }));
}

export function readReport(dir: string): Report {
  return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
}
