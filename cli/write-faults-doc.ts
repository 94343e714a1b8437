/**
 * Writes docs/faults.md from the fault registries (npm run docs:faults).
 *   npx tsx cli/write-faults-doc.ts           # (re)write
 *   npx tsx cli/write-faults-doc.ts --check   # exit 1 when the file differs
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { faultsMarkdown } from './fault-list.ts';

export const FAULTS_DOC_PATH = fileURLToPath(new URL('../docs/faults.md', import.meta.url));

function main(argv: readonly string[]): number {
  const text = faultsMarkdown();
  if (argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(FAULTS_DOC_PATH, 'utf8');
    } catch {
      current = '';
    }
    if (current === text) return 0;
    console.error(`${FAULTS_DOC_PATH} is out of date: run npm run docs:faults`);
    return 1;
  }
  writeFileSync(FAULTS_DOC_PATH, text);
  console.log(`wrote ${FAULTS_DOC_PATH}`);
  return 0;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = main(process.argv.slice(2));
}
