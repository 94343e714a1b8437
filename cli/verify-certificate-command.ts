/** `verify-certificate DIR [--profile FILE]`: exit 0 when DIR/certificate.json matches, 1 on a mismatch, 2 on usage. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifyCertificate } from '../verdict/certificate.ts';
import { HarnessError } from '../core/errors.ts';
import { inertLine } from '../core/inert.ts';
import type { Certificate } from '../report/model.ts';
import type { Options } from './options.ts';

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new HarnessError('HPS_ERR_USAGE', `verify-certificate: cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

export async function verifyCertificateCommand(o: Options, pos: string[]): Promise<number> {
  const dir = pos[0];
  if (!dir || pos.length > 1) throw new HarnessError('HPS_ERR_USAGE', 'verify-certificate: give exactly one DIR holding certificate.json and report.json');
  let cert: Certificate;
  try {
    cert = JSON.parse(read(join(dir, 'certificate.json'))) as Certificate;
  } catch (e) {
    if (e instanceof HarnessError) throw e;
    throw new HarnessError('HPS_ERR_USAGE', `verify-certificate: ${join(dir, 'certificate.json')} is not valid JSON`);
  }
  const profileText = typeof o.profile === 'string' ? read(o.profile) : undefined;
  let problems: string[];
  try {
    problems = verifyCertificate(cert, read(join(dir, 'report.json')), profileText);
  } catch (e) {
    if (e instanceof HarnessError) throw e;
    throw new HarnessError('HPS_ERR_USAGE', `verify-certificate: ${(e as Error).message}`);
  }
  if (problems.length) {
    for (const p of problems) console.log(`MISMATCH ${inertLine(p)}`);
    return 1;
  }
  const kind = cert.certification ? 'a certification' : `NOT a certification (${cert.not_certification_reason ?? 'reason not given'})`;
  // Every value here comes from a file: printed inert (core/inert.ts).
  console.log(inertLine(`certificate OK: report.json sha256 ${cert.report_sha256}${profileText !== undefined ? ', profile matches' : ''} · ${cert.verdict} · seed ${cert.seed} · ${cert.base_url} · ${kind}`));
  return 0;
}
