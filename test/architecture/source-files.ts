/**
 * The TypeScript and JavaScript files of the tree, as the text scans (long-lines.test.ts,
 * duplication.test.ts) read them: every .ts/.mjs below the root but node_modules, hidden folders
 * (.git, .hps, .ci) and written reports; paths relative to the root, with '/'.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');
/** The longest line long-lines.test.ts lets through. */
export const MAX_LINE = 140;
const SKIP = new Set(['node_modules', 'reports']);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name.startsWith('.') || SKIP.has(name)) return [];
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return walk(p);
    return /\.(ts|mjs)$/.test(name) ? [p] : [];
  });
}

export interface SourceFile {
  /** Relative to the root, with '/'. */
  path: string;
  text: string;
}

export function sourceFiles(): SourceFile[] {
  return walk(ROOT)
    .sort()
    .map((f) => ({ path: relative(ROOT, f).split(sep).join('/'), text: readFileSync(f, 'utf8') }));
}

/**
 * A ratchet: `counts` (path → how many, files with none absent) against `allowed` (path → the count
 * accepted today). A file over its allowance (0 when unlisted) is a regression; a listed file under
 * its allowance, or gone, is a list to tighten (so the list only shrinks).
 */
export function ratchet(
  counts: ReadonlyMap<string, number>,
  allowed: Readonly<Record<string, number>>,
): { over: string[]; tighten: string[] } {
  const over = [...counts].filter(([p, n]) => n > (allowed[p] ?? 0)).map(([p, n]) => `${p}: ${n} (allowed ${allowed[p] ?? 0})`);
  const tighten = Object.entries(allowed)
    .filter(([p, n]) => (counts.get(p) ?? 0) < n)
    .map(([p, n]) => `'${p}': ${counts.get(p) ?? 0} (listed ${n}: lower it${(counts.get(p) ?? 0) === 0 ? ', or remove the entry' : ''})`);
  return { over, tighten };
}
