/**
 * The one writer of report.json, whichever side made the report (run, webhooks judge, receiver,
 * client, proxy, mutation, report from a results log): the file through the safe write
 * (core/safe-write.ts: a temporary file and a rename, never through a symlink), then, as asked,
 * certificate.json (results/verdict/certificate.ts) and the renderings (results/render/render.ts: HTML, JUnit,
 * Markdown from report.json alone). test/architecture/report-writer.test.ts holds every other
 * module to it.
 */
import type { KeyObject } from 'node:crypto';
import { join } from 'node:path';
import type { Profile } from '../../core/profile.ts';
import { makeDirectory, writeFileAtomic } from '../../core/safe-write.ts';
import type { Certificate, Report } from '../../catalogue/report/model.ts';
import { renderAll, type RenderOptions } from '../render/render.ts';
import { writeCertificate } from './certificate.ts';

export const REPORT_FILE = 'report.json';

export interface PersistOptions {
  /** Write certificate.json beside it: the profile hashed into it (null: the merchant side's, none), the signing key. */
  certificate?: { profile: Profile | null; key?: KeyObject | undefined };
  /** Render report.html, junit.xml and summary.md (default: yes, with these options; false: not). */
  render?: RenderOptions | false;
}

/** Writes DIR/report.json (making DIR), then the certificate and the renderings as asked; returns the certificate written. */
export function persistReport(dir: string, report: Report, opts: PersistOptions = {}): { certificate?: Certificate } {
  makeDirectory(dir);
  writeFileAtomic(join(dir, REPORT_FILE), JSON.stringify(report, null, 2) + '\n');
  const certificate = opts.certificate ? writeCertificate(dir, report, opts.certificate.profile, opts.certificate.key) : undefined;
  if (opts.render !== false) renderAll(dir, report, opts.render ?? {});
  return certificate ? { certificate } : {};
}
