/** xmllint's verdict on a JUnit XML text: well-formed and valid against the common junit-10 schema. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const XSD = join(import.meta.dirname, '..', 'fixtures', 'junit-10.xsd');
let dir: string | undefined;
let n = 0;

export function xmllint(xml: string): { ok: boolean; out: string } {
  dir ??= mkdtempSync(join(tmpdir(), 'hps-junit-'));
  const file = join(dir, `j${n++}.xml`);
  writeFileSync(file, xml);
  try {
    const out = execFileSync(
      'xmllint',
      ['--noout', '--schema', XSD, file],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 20_000 },
    );
    return { ok: true, out };
  } catch (e) {
    return { ok: false, out: String((e as { stderr?: string }).stderr ?? e) };
  }
}
