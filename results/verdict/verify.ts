/**
 * `verify-certificate`: every claim of certificate.json derived again from report.json — rule
 * statuses against the catalogue and their tests → tallies → MUST counts → verdict → class
 * verdicts → certified classes → the certificate's fields — then its signature checked
 * (docs/certificates.md). Returns every discrepancy, the first one first; empty when it holds.
 */
import { getRule, isRuleId } from '../../catalogue/index.ts';
import { canonicalize } from '../../core/canonical-json.ts';
import { inertLine } from '../../core/inert.ts';
import { ajv } from '../../catalogue/schemas/ajv.ts';
import { reportSchema } from '../../catalogue/schemas/report.ts';
import type { Certificate, Report } from '../../catalogue/report/model.ts';
import { mustCounts } from '../../catalogue/report/must-counts.ts';
import { CERTIFICATE_FORMAT, buildCertificate, profileFileHash, sha256 } from './certificate.ts';
import { classVerdicts } from './classes.ts';
import { obligationsOf } from './obligations.ts';
import { signatureProblem } from './signing.ts';
import { verdictOfReport } from './incomplete.ts';
import { tallyStatuses } from './summary.ts';

export interface VerifyOptions {
  profileText?: string;
  /** The signers the verifier named (fingerprints, hex): the certificate must be signed by one of them. */
  signers?: readonly string[];
}

const validateReport = ajv.compile(reportSchema);
const show = (v: unknown) => inertLine(canonicalize(v ?? null)).slice(0, 160);

/** A rule's status against the catalogue and its own tests. */
function ruleProblems(report: Report): string[] {
  const out: string[] = [];
  for (const [i, r] of report.rules.entries()) {
    if (!isRuleId(r.id)) { out.push(`rules[${i}] ${show(r.id)} is not a rule of this catalogue`); continue; }
    const def = getRule(r.id);
    if (r.level !== def.level) out.push(`rules[${i}] ${r.id}: level ${r.level}, the catalogue says ${def.level}`);
    if ((r.untestable === true) !== (def.untestable !== undefined)) out.push(`rules[${i}] ${r.id}: untestable ${r.untestable === true}, ` +
      `the catalogue says ${def.untestable !== undefined}`);
    if (r.untestable && r.status !== 'skip') out.push(`rules[${i}] ${r.id}: status ${r.status} for a rule not exercisable through the API`);
    const failedTest = r.tests.some((t) => t.state === 'fail');
    if (failedTest && (r.status === 'pass' || r.status === 'skip')) out.push(`rules[${i}] ${r.id}: status ${r.status} while a test of ` +
      `it failed`);
    if (r.status === 'pass' && !r.tests.some((t) => t.state === 'pass')) out.push(`rules[${i}] ${r.id}: status pass with no test passed`);
  }
  return out;
}

/** The report's own claims derived again from its rules. */
export function reportProblems(report: Report): string[] {
  const out = ruleProblems(report);
  if (canonicalize(report.summary) !== canonicalize(tallyStatuses(report.rules))) out.push(`summary ${show(report.summary)} is not the ` +
    `tally of the rules ${show(tallyStatuses(report.rules))}`);
  if (canonicalize(report.must) !== canonicalize(mustCounts(report.rules))) out.push(`must ${show(report.must)} is not the MUST tally ` +
    `of the rules ${show(mustCounts(report.rules))}`);
  const policyFailed = (report.policy?.failed_because.length ?? 0) > 0;
  const derived = verdictOfReport(report);
  if (report.verdict !== derived) out.push(`verdict ${report.verdict}, but the rules${policyFailed ? ' and the policy' : ''} ` +
    `give ${derived}`);
  // The per-obligation claim, when the report makes one (older reports do not), is what its rules give.
  if (report.obligations && canonicalize(report.obligations) !== canonicalize(obligationsOf(report))) {
    out.push('obligations: the report\'s per-obligation claim is not what its rules give');
  }
  const classes = classVerdicts(report);
  if (canonicalize(report.classes ?? null) !== canonicalize(classes)) {
    const i = classes.findIndex((c, k) => canonicalize(report.classes?.[k] ?? null) !== canonicalize(c));
    out.push(`classes[${i}] ${classes[i]?.id ?? ''}: the report says ${show(report.classes?.[i])}, its rules give ${show(classes[i])}`);
  }
  return out;
}

/** Every field of the certificate against the one the report stands for (the profile hash taken as given). */
function fieldProblems(cert: Certificate, report: Report, reportJson: string): string[] {
  const expected = buildCertificate(report, reportJson, cert.profile_sha256 ?? null) as unknown as Record<string, unknown>;
  const given = cert as unknown as Record<string, unknown>;
  const out: string[] = [];
  for (const k of new Set([...Object.keys(expected), ...Object.keys(given)])) {
    if (k === 'signature' || k === 'report_sha256' || k === 'issued_at') continue;
    if (canonicalize(given[k] ?? null) !== canonicalize(expected[k] ?? null)) out.push(`certificate ${k}: ${show(given[k])}, the report ` +
      `gives ${show(expected[k])}`);
  }
  return out;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;

/** issued_at: an ISO 8601 UTC time, not before the run it certifies ended. */
function issuedProblem(cert: Certificate): string | undefined {
  const at = cert.issued_at;
  if (typeof at !== 'string' || !ISO.test(at) || Number.isNaN(Date.parse(at))) return `issued_at ${show(at)} is not an ISO 8601 UTC time`;
  const ended = Date.parse(String(cert.run_ended_at));
  if (!Number.isNaN(ended) && Date.parse(at) < ended) return `issued_at ${at} is before the run ended (${show(cert.run_ended_at)})`;
  return undefined;
}

export function verifyCertificate(cert: Certificate, reportJson: string, o: VerifyOptions = {}): string[] {
  if (!cert || typeof cert !== 'object') return ['certificate.json is not an object'];
  if (cert.format !== CERTIFICATE_FORMAT) return [`certificate format ${show(cert.format)} is not ${CERTIFICATE_FORMAT} (an older ` +
    `certificate, or not one)`];
  const problems: string[] = [];
  const actual = sha256(reportJson);
  if (cert.report_sha256 !== actual) problems.push(`report_sha256 ${show(cert.report_sha256)} does not match report.json (${actual})`);
  let report: Report | undefined;
  try {
    report = JSON.parse(reportJson) as Report;
  } catch {
    problems.push('report.json is not valid JSON');
  }
  if (report && !validateReport(report)) {
    const e = validateReport.errors?.[0];
    problems.push(`report.json does not match its schema at ${e?.instancePath || '/'}: ${e?.message ?? 'invalid'}`);
    report = undefined;
  }
  if (report) problems.push(...reportProblems(report), ...fieldProblems(cert, report, reportJson));
  if (o.profileText !== undefined) {
    const h = profileFileHash(o.profileText);
    if (h !== cert.profile_sha256) problems.push(`profile_sha256 ${show(cert.profile_sha256)} does not match the profile given (${h})`);
  }
  const issued = issuedProblem(cert);
  if (issued) problems.push(issued);
  const sig = cert.signature === null && !o.signers ? undefined : signatureProblem(cert, o.signers);
  if (sig) problems.push(sig === 'the certificate is unsigned' ? 'the certificate is unsigned, and the verifier named its signer ' +
    '(--public-key / --fingerprint / --trust)' : sig);
  return problems;
}
