/**
 * Dependencies point one way. Each top-level folder may import only from the folders listed
 * for it; the reference implementations (reference/, reference-receiver/) and the sink import
 * nothing from the suite side, so a mistake in the oracle can never hide in the thing it judges.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** Folder → the folders it may import from (itself always allowed). */
export const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  catalogue: [],
  schemas: ['catalogue'],
  report: ['catalogue'],
  reference: [],
  'reference-receiver': [],
  sink: [],
  examples: [],
  generators: ['catalogue', 'schemas'],
  core: ['catalogue', 'schemas', 'report'],
  render: ['report', 'catalogue', 'core'],
  verdict: ['core', 'report', 'catalogue', 'schemas', 'render'],
  targets: ['core', 'reference', 'sink'],
  runner: ['core', 'verdict', 'targets', 'report', 'render', 'catalogue', 'schemas'],
  suites: ['runner', 'core', 'generators', 'schemas', 'catalogue', 'sink', 'report'],
  mutation: ['runner', 'verdict', 'targets', 'core', 'report', 'catalogue', 'reference'],
  load: ['core', 'targets', 'report', 'render', 'schemas', 'catalogue'],
  receiver: ['core', 'verdict', 'report', 'render', 'catalogue', 'reference-receiver'],
  'webhook-judge': ['core', 'verdict', 'report', 'render', 'catalogue', 'sink'],
  'client-cert': ['core', 'verdict', 'report', 'render', 'catalogue', 'receiver', 'reference', 'examples', 'targets'],
  // generators: the fixed case tables, listed by `run --dry-run --cases` and checked for `--case`.
  cli: ['core', 'runner', 'verdict', 'targets', 'mutation', 'load', 'receiver', 'client-cert', 'webhook-judge', 'reference', 'reference-receiver', 'sink', 'report', 'render', 'catalogue', 'schemas', 'generators'],
  bin: ['cli'],
  // Benches measure the product from outside; nothing imports them.
  bench: ['core', 'runner', 'verdict', 'targets', 'mutation', 'load', 'receiver', 'client-cert', 'reference', 'reference-receiver', 'sink', 'report', 'render', 'catalogue', 'schemas', 'cli'],
};

const SKIP = new Set(['node_modules', '.git', 'test', 'docs', 'deploy', '.hps', '.ci']);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return SKIP.has(name) || name === 'runs' ? [] : sources(p);
    return /\.(ts|mjs)$/.test(name) && !name.endsWith('.spec.ts') ? [p] : [];
  });
}

const topOf = (p: string) => relative(ROOT, p).split(sep)[0]!;

/** Every relative import (static, dynamic, export … from) of a file, as the folder it lands in. */
export function importedFolders(file: string): Array<{ spec: string; folder: string }> {
  const text = readFileSync(file, 'utf8');
  const out: Array<{ spec: string; folder: string }> = [];
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const spec = m[1]!;
    out.push({ spec, folder: topOf(resolve(dirname(file), spec)) });
  }
  return out;
}

const files = readdirSync(ROOT)
  .filter((n) => !SKIP.has(n) && statSync(join(ROOT, n)).isDirectory())
  .flatMap((n) => sources(join(ROOT, n)));

describe('import directions', () => {
  it('every top-level folder with code has a row in the table', () => {
    const folders = [...new Set(files.map(topOf))].sort();
    expect(folders.filter((f) => !(f in ALLOWED))).toEqual([]);
  });

  it('no file imports from a folder its own folder may not depend on', () => {
    const violations = files.flatMap((file) => {
      const from = topOf(file);
      const allowed = new Set([from, ...(ALLOWED[from] ?? [])]);
      return importedFolders(file)
        .filter((i) => !allowed.has(i.folder))
        .map((i) => `${relative(ROOT, file)} imports ${i.spec} (${from} → ${i.folder} is not allowed)`);
    });
    expect(violations).toEqual([]);
  });

  it('the table has no cycle (dependencies point one way)', () => {
    const seen = new Map<string, 'open' | 'done'>();
    const cycle: string[] = [];
    const visit = (f: string, path: string[]): void => {
      if (seen.get(f) === 'done' || cycle.length) return;
      if (seen.get(f) === 'open') return void cycle.push(...path, f);
      seen.set(f, 'open');
      for (const g of ALLOWED[f] ?? []) visit(g, [...path, f]);
      seen.set(f, 'done');
    };
    for (const f of Object.keys(ALLOWED)) visit(f, []);
    expect(cycle).toEqual([]);
  });

  it('catches a forbidden import (the check can fail)', () => {
    const fake = join(ROOT, 'reference', 'x.ts');
    const spec = '../catalogue/index.ts';
    expect(topOf(resolve(dirname(fake), spec))).toBe('catalogue');
    expect(ALLOWED.reference).not.toContain('catalogue');
  });
});
