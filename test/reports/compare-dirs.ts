/**
 * Three real runs of the create area at seed 1, as report dirs for the comparison tests: the clean
 * reference, and the faults amount-through-float and metadata-21-keys-accepted.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
export const COMPARED = [
  ['clean', 'report-create-clean.json'],
  ['amount-through-float', 'report-create-amount-through-float.json'],
  ['metadata-21-keys', 'report-create-metadata-21-keys-accepted.json'],
] as const;

/** Three report dirs under a fresh temp root, and where the comparison page goes. */
export function compareDirs(): { root: string; dirs: string[]; out: string } {
  const root = mkdtempSync(join(tmpdir(), 'hps-compare-'));
  const dirs = COMPARED.map(([name, file]) => {
    const d = join(root, 'runs', name);
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, 'report.json'), readFileSync(join(FIXTURES, file)));
    return d;
  });
  return { root, dirs, out: join(root, 'pages', 'compare.html') };
}

