/**
 * `verify-certificate DIR [--profile FILE] [--public-key FILE] [--require-signature]`: exit 0 when
 * every claim of DIR/certificate.json derives again from DIR/report.json (and the signature holds),
 * 1 with a line naming the first discrepancy, 2 on usage (docs/certificates.md).
 */
import { readCappedText } from '../core/read-capped.ts';
import { REPORT_MAX_BYTES } from '../core/report-file.ts';
import { join } from 'node:path';
import { verifyCertificate } from '../verdict/verify.ts';
import { loadPublicKey } from '../verdict/signing.ts';
import { HarnessError } from '../core/errors.ts';
import { inertLine } from '../core/inert.ts';
import type { Certificate } from '../report/model.ts';
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

export async function verifyCertificateCommand(o: Options, pos: string[]): Promise<number> {
  const dir = pos[0];
  if (!dir || pos.length > 1) throw new HarnessError('HPS_ERR_USAGE', 'verify-certificate: give exactly one DIR holding certificate.json and report.json');
  const publicKey = typeof o['public-key'] === 'string' ? loadPublicKey(o['public-key']) : undefined;
  const cert = readCertificate(dir);
  const profileText = typeof o.profile === 'string' ? read(o.profile) : undefined;
  let problems: string[];
  try {
    problems = verifyCertificate(cert, read(join(dir, 'report.json')), { profileText, publicKey, requireSignature: o['require-signature'] === true });
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
  const what = cert.certification ? `certifies ${cert.certified_classes.join(', ')}` : `NOT a certification (${cert.not_certification_reason ?? 'reason not given'})`;
  const signed = cert.signature
    ? `signed by key ${cert.signature.public_key_sha256}${publicKey ? ' (the key given)' : ' (not checked against a trusted key: give --public-key)'}`
    : 'unsigned';
  // Every value here comes from a file: printed inert (core/inert.ts).
  console.log(inertLine(`certificate OK: every claim derives from report.json (sha256 ${cert.report_sha256})${profileText !== undefined ? ', profile matches' : ''} · ${cert.verdict} · ${what} · seed ${cert.seed} · ${cert.base_url} · ${signed}`));
  return 0;
}
