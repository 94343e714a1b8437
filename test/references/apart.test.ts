/** The reference is written apart from the suite: it imports nothing from the suite's side. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../references/service');
const FORBIDDEN = /from\s+['"](?:\.\.\/)+(catalogue|core|service|results|merchant|load|suites|cli)\//;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('references/service/', () => {
  it('imports nothing from catalogue/, core/, service/, results/, merchant/, load/, suites/ or cli/ (only the seams beside it)', () => {
    const files = sources(ROOT);
    expect(files.length).toBeGreaterThan(20);
    const offending = files.filter((f) => FORBIDDEN.test(readFileSync(f, 'utf8'))).map((f) => f.slice(ROOT.length + 1));
    expect(offending).toEqual([]);
  });
});
