/**
 * The version lives in package.json alone, read by core/version.ts (TOOL): no product file spells
 * it out again (a second copy went stale in load/run-load.ts once).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from './source-files.ts';

const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

describe('one version string', () => {
  it('no product file spells the package version; each reads core/version.ts', () => {
    const literal = new RegExp(`['"\`]v?${version.replace(/\./g, '\\.')}['"\`]`);
    const found = sourceFiles().filter((f) => !/^(test|bench)\//.test(f.path) && literal.test(f.text)).map((f) => f.path);
    expect(found).toEqual([]);
  });
});
