/** docs/errors.md is generated from core/error-codes.ts: it fails when the two differ (regenerate: npm run docs:errors). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERRORS_DOC_PATH, errorsMarkdown } from '../../cli/write-errors-doc.ts';
import { ERROR_CODES } from '../../core/error-codes.ts';

describe('docs/errors.md', () => {
  it('is what the table generates (regenerate: npm run docs:errors)', () => {
    expect(readFileSync(ERRORS_DOC_PATH, 'utf8')).toBe(errorsMarkdown());
  });

  it('lists every code of the table', () => {
    const doc = errorsMarkdown();
    expect(Object.keys(ERROR_CODES).filter((c) => !doc.includes(`| \`${c}\` |`))).toEqual([]);
  });
});
