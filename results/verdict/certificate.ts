/**
 * certificate.json (docs/certificates.md): what a run certifies — the conformance classes whose
 * every testable MUST rule ran and passed, in an unfiltered run at the default runs — bound to
 * its report.json, the profile (secrets removed), the tool, the rule catalogue and the spec text
 * by SHA-256, and signed with Ed25519 when a key is given (results/verdict/signing.ts). Written by every
 * run; `verify-certificate` derives every claim again from report.json (results/verdict/verify.ts).
 */
import { createHash, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../core/safe-write.ts';
import type { Certificate, ClassVerdict, Report } from '../../catalogue/report/model.ts';
import { DOCUMENT_VERSION } from '../../catalogue/schemas/openapi.ts';
import { interpolateEnv, type Profile } from '../../core/profile.ts';
import { canonicalize } from '../../core/canonical-json.ts';
import { CLASSES, RULES, getClass } from '../../catalogue/index.ts';
import { SPEC_SHA256 } from '../../catalogue/spec-text.ts';
import { mustCoverage } from './policy.ts';
import { classVerdicts } from './classes.ts';
import { showFingerprint, signCertificate } from './signing.ts';

/** /3: issued_at, run_started_at, run_ended_at added; a /2 certificate is refused by verify-certificate with one line. */
export const CERTIFICATE_FORMAT = 'hps-conformance-certificate/3';
/** fast-check runs per property a certification needs (the default). */
export const CERTIFICATION_RUNS = 100;

export function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Canonical JSON (core/canonical-json.ts); the name older callers use. */
export const canonicalJson = canonicalize;

/** SHA-256 of the canonical JSON of the rule catalogue and its classes: which rules, levels and classes the verdicts came from. */
export function catalogueHash(): string {
  return sha256(canonicalize({ rules: RULES, classes: CLASSES }));
}

/** The profile with every secret replaced by "<secret>": which keys exist stays part of the hash, their values never. */
export function profileWithoutSecrets(p: Profile): unknown {
  const copy = JSON.parse(JSON.stringify(p)) as Profile;
  for (const k of Object.keys(copy.keys)) (copy.keys as Record<string, string>)[k] = '<secret>';
  for (const e of copy.webhooks?.endpoints ?? []) e.secret = '<secret>';
  if (copy.control) copy.control.token = '<secret>';
  const secretHeaders = new Set((copy.network?.redacted_headers ?? []).map((h) => h.toLowerCase()));
  for (const h of Object.keys(copy.network?.headers ?? {})) if (secretHeaders.has(h.toLowerCase())) copy.network!.headers![h] = '<secret>';
  copy.base_url = copy.base_url.replace(/\/+$/, '');
  return copy;
}

export function profileHash(p: Profile): string {
  return sha256(canonicalize(profileWithoutSecrets(p)));
}

const isMerchant = (r: Report) => r.side === 'receiver' || r.side === 'client';

/** Why a run certifies nothing whatever its results (filtered, reduced runs, stopped early), or undefined. */
export function notCertificationReason(report: Report): string | undefined {
  const why: string[] = [];
  if (!isMerchant(report)) {
    if (report.selection.areas.length || report.selection.rules.length) why.push('filtered run (--area/--rule)');
    if (report.selection.levels && report.selection.levels.length < 3) why.push(`level-filtered run ` +
      `(--level: ${report.selection.levels.join(', ')})`);
    if (report.runs < CERTIFICATION_RUNS) why.push(`--runs ${report.runs} is fewer than the default ${CERTIFICATION_RUNS}`);
  }
  const dedupScale = report.side === 'receiver' ? report.rules.find((r) => r.id === 'RECV-DEDUPLICATE')?.observed?.dedup_time_scale : undefined;
  if (typeof dedupScale === 'number' && dedupScale !== 1) why.push(`--dedup-time-scale ${dedupScale}: deduplication proven over the ` +
    `retry schedule shortened ${dedupScale} times (a rehearsal)`);
  if (report.stopped) why.push(`the run ${report.stopped}`);
  if (report.partial) why.push(`partial run: ${report.partial_reason ?? 'interrupted'}`);
  return why.length ? why.join('; ') : undefined;
}

/** The classes certified: conformant, with every class they depend on conformant too, in a run that can certify. */
export function certifiedClasses(report: Report, classes: readonly ClassVerdict[]): string[] {
  if (notCertificationReason(report) !== undefined) return [];
  const ok = new Set(classes.filter((c) => c.status === 'conformant').map((c) => c.id));
  return classes.filter((c) => ok.has(c.id) && (getClass(c.id)?.dependsOn ?? []).every((d) => ok.has(d))).map((c) => c.id);
}

/** Why nothing is certified, when nothing is. */
function nothingCertifiedReason(report: Report, classes: readonly ClassVerdict[]): string {
  const run = notCertificationReason(report);
  if (run) return run;
  const bad = classes.filter((c) => c.status !== 'conformant').map((c) => `${c.id}: ${c.status === 'not_tested' ? 'not tested' : 'not ' +
    'conformant'}`);
  return `no class is conformant with its dependencies (${bad.slice(0, 4).join('; ')}${bad.length > 4 ? '; …' : ''})`;
}

/** The certificate a report stands for, unsigned; `profileSha256` null for the merchant side; `issuedAt` now unless given. */
export function buildCertificate(
  report: Report,
  reportJson: string,
  profileSha256: string | null,
  issuedAt = new Date().toISOString(),
): Certificate {
  const classes = classVerdicts(report);
  const certified = certifiedClasses(report, classes);
  return {
    format: CERTIFICATE_FORMAT,
    tool: report.tool,
    description_document_version: DOCUMENT_VERSION,
    spec_sha256: SPEC_SHA256,
    catalogue_sha256: catalogueHash(),
    report_sha256: sha256(reportJson),
    profile_sha256: profileSha256,
    side: report.side ?? 'service',
    seed: report.seed,
    runs: report.runs,
    base_url: report.target.base_url,
    selection: report.selection,
    verdict: report.verdict,
    counts: { ...report.summary },
    must: { ...report.must },
    must_coverage: mustCoverage(report),
    classes,
    certified_classes: certified,
    certification: certified.length > 0,
    ...(certified.length ? {} : { not_certification_reason: nothingCertifiedReason(report, classes) }),
    issued_at: issuedAt,
    run_started_at: report.started_at,
    run_ended_at: report.finished_at,
    signature: null,
  };
}

/** Writes DIR/certificate.json for DIR/report.json as written on disk, signed when a key is given; returns it. */
export function writeCertificate(dir: string, report: Report, profile: Profile | null, key?: KeyObject): Certificate {
  const unsigned = buildCertificate(report, readFileSync(join(dir, 'report.json'), 'utf8'), profile ? profileHash(profile) : null);
  const cert = key ? signCertificate(unsigned, key) : unsigned;
  writeFileAtomic(join(dir, 'certificate.json'), JSON.stringify(cert, null, 2) + '\n');
  return cert;
}

/** A profile file's hash as the certificate computes it; `${NAME}`s need not be set (secrets are dropped anyway). */
export function profileFileHash(text: string, env: NodeJS.ProcessEnv = process.env): string {
  const keep = new Proxy(env, { get: (e, name: string) => e[name] ?? `\${${name}}` });
  const data = interpolateEnv(JSON.parse(text), keep, []) as Profile;
  return profileHash(data);
}

/** How to check it: with the signer named (its fingerprint) when signed; unsigned, its claims only. */
function verifyHint(cert: Certificate, dir: string): string {
  return cert.signature
    ? `verify it with: hps-conformance verify-certificate ${dir} --fingerprint ${showFingerprint(cert.signature.public_key_sha256)} ` +
      `(the signer named: publish that fingerprint)`
    : `unsigned: hps-conformance verify-certificate ${dir} checks its claims only; sign with --sign-key for a certificate that can be ` +
      `verified`;
}

/** One line for the console: what is certified, or why nothing is, and how to verify it. */
export function certificationLine(cert: Certificate, dir: string): string {
  const signed = cert.signature ? `signed (Ed25519, ${showFingerprint(cert.signature.public_key_sha256)})` : 'unsigned';
  if (!cert.certification) return `NOT A CERTIFICATION: ${cert.not_certification_reason ?? ''} (certificate.json says so, ${signed})${cert.signature ? ` · ${verifyHint(cert, dir)}` : ''}`;
  const rest = cert.classes.filter((c) => !cert.certified_classes.includes(c.id)).map((c) => c.id);
  return `certification of ${cert.certified_classes.join(', ')}${rest.length ? ` (not certified: ${rest.join(', ')})` : ''} · ${signed}: ${join(dir, 'certificate.json')} · ${verifyHint(cert, dir)}`;
}
