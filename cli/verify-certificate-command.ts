/**
 * `verify-certificate DIR [--profile FILE] [--public-key FILE]... [--fingerprint SHA256:HEX]...
 * [--trust FILE] [--require-signature]`: exit 0 when every claim of DIR/certificate.json derives
 * again from DIR/report.json (and, when the verifier named its signers, it is signed by one of
 * them: only then "VERIFIED"), 1 with a line naming the first discrepancy, 2 on usage
 * (docs/certificates.md). Without a named signer it says "signature not checked" or "unsigned".
 */
import { readCappedText } from '../core/read-capped.ts';
import { REPORT_MAX_BYTES } from '../core/report-file.ts';
import { join } from 'node:path';
import { verifyCertificate } from '../results/verdict/verify.ts';
import { fingerprint, loadPublicKey, parseFingerprint, readTrustFile, showFingerprint } from '../results/verdict/signing.ts';
import { HarnessError } from '../core/errors.ts';
import { inertLine } from '../core/inert.ts';
import type { Certificate } from '../catalogue/report/model.ts';
import type { Options } from './options.ts';

function read(path: string): string {
  return readCappedText(path, REPORT_MAX_BYTES, 'verify-certificate');
}

function readCertificate(dir: string): Certificate {
  const file = join(dir, 'certificate.json');
  const text = read(file);
  try {
    return JSON.parse(text) as Certificate;
  } catch {
    throw new HarnessError('HPS_ERR_USAGE', `verify-certificate: ${file} is not valid JSON`);
  }
}

/** The signers the verifier named: --public-key FILE, --fingerprint SHA256:HEX (each repeatable), --trust FILE. */
function namedSigners(o: Options): { signers: string[]; named: string } | undefined {
  const list = (v: unknown) => (Array.isArray(v) ? v : typeof v === 'string' ? [v] : []).map(String);
  const keys = list(o['public-key']).map((f) => fingerprint(loadPublicKey(f)));
  const prints = list(o.fingerprint).map((f) => {
    const hex = parseFingerprint(f);
    if (!hex) throw new HarnessError(
      'HPS_ERR_USAGE',
      `--fingerprint ${JSON.stringify(inertLine(f).slice(0, 80))}: must be SHA256: and 64 hex digits (as \`run\` prints it after signing)`,
    );
    return hex;
  });
  const trusted = typeof o.trust === 'string' ? readTrustFile(o.trust) : [];
  const signers = [...keys, ...prints, ...trusted];
  if (!signers.length) return undefined;
  const named = [
    keys.length ? '--public-key' : '',
    prints.length ? '--fingerprint' : '',
    trusted.length ? '--trust' : '',
  ].filter(Boolean).join(', ');
  return { signers, named };
}

/** What the signature line says: verified only against a signer named; otherwise plainly not checked, or unsigned. */
function signatureWords(cert: Certificate, named: ReturnType<typeof namedSigners>): string {
  if (!cert.signature) return 'UNSIGNED: not verified (anyone can rebuild a consistent report and certificate; a verified certificate ' +
    'is signed by a signer you name)';
  const by = showFingerprint(cert.signature.public_key_sha256);
  if (named) return `signed by ${by}, a signer named (${named.named})`;
  return `SIGNATURE NOT CHECKED: signed by ${by}, a signer nobody named, so not verified (name the certifier you trust: --fingerprint ` +
    `SHA256:…, --public-key FILE or --trust FILE)`;
}

export async function verifyCertificateCommand(o: Options, pos: string[]): Promise<number> {
  const dir = pos[0];
  if (!dir || pos.length > 1) throw new HarnessError(
    'HPS_ERR_USAGE',
    'verify-certificate: give exactly one DIR holding certificate.json and report.json',
  );
  const named = namedSigners(o);
  if (o['require-signature'] === true && !named) throw new HarnessError(
    'HPS_ERR_USAGE',
    'verify-certificate: --require-signature needs the signer named (--public-key FILE, --fingerprint SHA256:HEX or --trust FILE): a ' +
      'signature anyone can make proves nothing',
  );
  const cert = readCertificate(dir);
  const profileText = typeof o.profile === 'string' ? read(o.profile) : undefined;
  let problems: string[];
  try {
    problems = verifyCertificate(cert, read(join(dir, 'report.json')), { profileText, ...(named ? { signers: named.signers } : {}) });
  } catch (e) {
    if (e instanceof HarnessError) throw e;
    throw new HarnessError('HPS_ERR_USAGE', `verify-certificate: ${(e as Error).message}`);
  }
  if (problems.length) {
    // The first discrepancy names what is wrong; the rest follow, bounded.
    console.log(`MISMATCH ${inertLine(problems[0]!)}`);
    for (const p of problems.slice(1, 20)) console.log(`  also: ${inertLine(p)}`);
    return 1;
  }
  const what = cert.certification ? `certifies ${cert.certified_classes.join(', ')}` : `NOT a certification ` +
    `(${cert.not_certification_reason ?? 'reason not given'})`;
  const head = named ? 'VERIFIED: every claim derives from report.json and the signature is a named signer\'s' : 'claims consistent ' +
    '(not verified)';
  // Every value here comes from a file: printed inert (core/inert.ts).
  const report = `report sha256 ${cert.report_sha256}${profileText !== undefined ? ', profile matches' : ''}`;
  const run = `run ${cert.run_started_at} to ${cert.run_ended_at}, issued ${cert.issued_at}`;
  const target = `seed ${cert.seed} · ${cert.base_url}`;
  console.log(inertLine(`${head} · ${report} · ${cert.verdict} · ${what} · ${target} · ${run} · ${signatureWords(cert, named)}`));
  return 0;
}
