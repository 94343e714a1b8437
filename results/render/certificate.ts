/**
 * Whether a report is a certification: certificate.json (written next to report.json by an
 * unfiltered default run) decides; without it, a filtered or `--runs`-reduced run is plainly not one.
 */
import { existsSync } from 'node:fs';
import { INPUT_CAPS, readCappedText } from '../../core/read-capped.ts';
import { join } from 'node:path';
import type { CertificateRead, Report } from '../../catalogue/report/model.ts';

/** certificate.json from a report dir, or undefined when absent or unreadable. */
export function readCertificate(dir: string): CertificateRead | undefined {
  const file = join(dir, 'certificate.json');
  if (!existsSync(file)) return undefined;
  try {
    const c = JSON.parse(readCappedText(file, INPUT_CAPS.certificate, 'certificate.json')) as CertificateRead;
    return c && typeof c === 'object' && typeof c.certification === 'boolean' ? c : undefined;
  } catch {
    return undefined;
  }
}

export interface CertificationStatus {
  certification: boolean;
  /** Why not, in one sentence (absent when it is a certification). */
  reason?: string;
}

/** Reasons a report cannot certify, from the report alone. */
export function notCertificationReasons(report: Report): string[] {
  // A merchant-side run is never filtered and runs no properties: nothing here applies to it.
  if (report.side === 'receiver' || report.side === 'client') return [];
  const why: string[] = [];
  const sel = report.selection ?? { areas: [], rules: [] };
  if (sel.areas?.length) why.push(`filtered to area(s) ${sel.areas.join(', ')}`);
  if (sel.rules?.length) why.push(`filtered to rule(s) ${sel.rules.join(', ')}`);
  if (report.runs < 100) why.push(`${report.runs} runs per property (a certification uses at least 100)`);
  return why;
}

export function certificationStatus(report: Report, cert: CertificateRead | undefined): CertificationStatus {
  const why = notCertificationReasons(report);
  if (why.length) return { certification: false, reason: `not a certification: ${why.join('; ')}` };
  if (!cert) return {
    certification: false,
    reason: `not a certification: ${report.side === 'receiver' || report.side === 'client' ? merchantWhatRan(report) : 'no ' +
      'certificate.json next to this report'}`,
  };
  if (!cert.certification) return {
    certification: false,
    reason: `not a certification: ${cert.not_certification_reason ?? 'the certificate says so'}`,
  };
  return { certification: true };
}

/** A merchant-side run without a certificate says what ran, not why a service run would not certify. */
function merchantWhatRan(report: Report): string {
  const m = report.must;
  return `no certificate.json next to this ${report.side} report; what ran: ${m.ran} of ${m.testable} testable MUST rules (${m.passed} ` +
    `passed, ${m.failed} failed, ${m.skipped} skipped), ${m.untestable} not testable through the wire, ${report.requests} requests`;
}
