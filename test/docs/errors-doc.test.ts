/** docs/errors.md is generated from core/error-codes.ts: it fails when the two differ (regenerate: npm run docs:errors). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERRORS_DOC_PATH, errorsMarkdown } from '../../cli/write-errors-doc.ts';
import { ERROR_CODES } from '../../core/error-codes.ts';

describe('docs/errors.md', () => {
  it('is what the table generates (regenerate: npm run docs:errors)', () => {
    expect(readFileSync(ERRORS_DOC_PATH, 'utf8')).toBe(errorsMarkdown());
  });

  it('every error code the documentation names is in the table (a rename is documented there)', () => {
    const root = join(import.meta.dirname, '..', '..');
    const pages = readdirSync(join(root, 'docs')).filter((n) => n.endsWith('.md'));
    const docs = ['README.md', 'service/sink/README.md', ...pages.map((n) => `docs/${n}`)];
    const named = docs.flatMap((d) =>
      [...readFileSync(join(root, d), 'utf8').matchAll(/\b(?:HPS_ERR|HPS_RULE|SINK)_[A-Z_]+\b/g)].map((m) => [d, m[0]] as const));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter(([, code]) => !(code in ERROR_CODES)).map(([d, code]) => `${d}: ${code}`)).toEqual([]);
  });

  it('lists every code of the table', () => {
    const doc = errorsMarkdown();
    expect(Object.keys(ERROR_CODES).filter((c) => !doc.includes(`| \`${c}\` |`))).toEqual([]);
  });
});
