/**
 * certificate.json: what a run certifies, with SHA-256 hashes that tie it to
 * its report.json and to the profile (secrets removed) it ran with. Written by
 * every run; only an unfiltered run with the default runs is a certification,
 * and the certificate says why otherwise. `verify-certificate` recomputes the hashes.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../core/safe-write.ts';
import type { Certificate, Report } from '../report/model.ts';
import { DOCUMENT_VERSION } from '../schemas/openapi.ts';
import { interpolateEnv, type Profile } from '../core/profile.ts';
import { mustCoverage } from './policy.ts';

/** fast-check runs per property a certification needs (the default). */
export const CERTIFICATION_RUNS = 100;

export function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** JSON with object keys sorted at every depth, so the hash does not depend on key order. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** The profile with every secret replaced by "<secret>": which keys exist stays part of the hash, their values never. */
export function profileWithoutSecrets(p: Profile): unknown {
  const copy = JSON.parse(JSON.stringify(p)) as Profile;
  for (const k of Object.keys(copy.keys)) (copy.keys as Record<string, string>)[k] = '<secret>';
  for (const e of copy.webhooks?.endpoints ?? []) e.secret = '<secret>';
  if (copy.control) copy.control.token = '<secret>';
  copy.base_url = copy.base_url.replace(/\/+$/, '');
  return copy;
}

export function profileHash(p: Profile): string {
  return sha256(canonicalJson(profileWithoutSecrets(p)));
}

/** Why a run is not a certification, or undefined when it is one. */
export function notCertificationReason(report: Report): string | undefined {
  const why: string[] = [];
  if (report.selection.areas.length || report.selection.rules.length) why.push('filtered run (--area/--rule)');
  if (report.selection.levels && report.selection.levels.length < 3) why.push(`level-filtered run (--level: ${report.selection.levels.join(', ')})`);
  if (report.runs < CERTIFICATION_RUNS) why.push(`--runs ${report.runs} is fewer than the default ${CERTIFICATION_RUNS}`);
  if (report.stopped) why.push(`the run ${report.stopped}`);
  if (report.partial) why.push(`partial run: ${report.partial_reason ?? 'interrupted'}`);
  return why.length ? why.join('; ') : undefined;
}

export function buildCertificate(report: Report, reportJson: string, profile: Profile): Certificate {
  const reason = notCertificationReason(report);
  return {
    tool: report.tool,
    description_document_version: DOCUMENT_VERSION,
    report_sha256: sha256(reportJson),
    profile_sha256: profileHash(profile),
    seed: report.seed,
    base_url: report.target.base_url,
    verdict: report.verdict,
    counts: { ...report.summary },
    must_coverage: mustCoverage(report),
    certification: reason === undefined,
    ...(reason ? { not_certification_reason: reason } : {}),
  };
}

/** Writes DIR/certificate.json for DIR/report.json as written on disk; returns it. */
export function writeCertificate(dir: string, report: Report, profile: Profile): Certificate {
  const cert = buildCertificate(report, readFileSync(join(dir, 'report.json'), 'utf8'), profile);
  writeFileAtomic(join(dir, 'certificate.json'), JSON.stringify(cert, null, 2) + '\n');
  return cert;
}

/** A profile file's hash as the certificate computes it; `${NAME}`s need not be set (secrets are dropped anyway). */
export function profileFileHash(text: string, env: NodeJS.ProcessEnv = process.env): string {
  const keep = new Proxy(env, { get: (e, name: string) => e[name] ?? `\${${name}}` });
  const data = interpolateEnv(JSON.parse(text), keep, []) as Profile;
  return profileHash(data);
}

/** Every disagreement between a certificate and its report (and profile): empty when it verifies. */
export function verifyCertificate(cert: Certificate, reportJson: string, profileText?: string): string[] {
  const problems: string[] = [];
  const actual = sha256(reportJson);
  if (cert.report_sha256 !== actual) problems.push(`report_sha256 ${cert.report_sha256} does not match report.json (${actual})`);
  let report: Report | undefined;
  try {
    report = JSON.parse(reportJson) as Report;
  } catch {
    problems.push('report.json is not valid JSON');
  }
  if (report) {
    if (report.seed !== cert.seed) problems.push(`seed ${cert.seed} differs from the report's ${report.seed}`);
    if (report.verdict !== cert.verdict) problems.push(`verdict ${cert.verdict} differs from the report's ${report.verdict}`);
    if (report.target?.base_url !== cert.base_url) problems.push(`base_url ${cert.base_url} differs from the report's ${report.target?.base_url}`);
    if (canonicalJson(report.summary) !== canonicalJson(cert.counts)) problems.push('counts differ from the report\'s summary');
    const claim = notCertificationReason(report) === undefined;
    if (cert.certification !== claim) problems.push(`certification: ${cert.certification} but the report's run ${claim ? 'is' : 'is not'} a certification`);
  }
  if (profileText !== undefined) {
    const h = profileFileHash(profileText);
    if (h !== cert.profile_sha256) problems.push(`profile_sha256 ${cert.profile_sha256} does not match the profile given (${h})`);
  }
  return problems;
}
