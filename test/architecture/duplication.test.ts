/**
 * No block of code written twice: a window of MIN_LINES consecutive non-trivial lines (blank lines,
 * comments, imports and lone punctuation passed over, white space folded) that stands identically in
 * two product files, or twice in one. Product code: every folder but test/ and test/perf/ (tests repeat
 * their set-up on purpose, each readable alone; benches measure from outside). A window found in
 * more than TOO_COMMON places is a shape, not a copy, and is not counted. A file's count is the
 * number of its (non-trivial) lines inside some duplicated window; the files that had any when the
 * check came in are listed in duplication-allowed.ts, a ratchet that only shrinks (as long-lines).
 */
import { describe, expect, it } from 'vitest';
import { DUPLICATION_ALLOWED } from './duplication-allowed.ts';
import { duplicatedWindows, isProduct, MIN_LINES } from './duplicates.ts';
import { ratchet, sourceFiles } from './source-files.ts';

describe(`no block of ${MIN_LINES} lines written twice in product code`, () => {
  const product = sourceFiles().filter((f) => isProduct(f.path));
  const { covered, examples } = duplicatedWindows(product);
  const counts = new Map([...covered].map(([p, s]) => [p, s.size]));
  const { over, tighten } = ratchet(counts, DUPLICATION_ALLOWED);

  it('no file has more duplicated lines than duplication-allowed.ts lets it (share the block instead)', () => {
    const where = (e: string) =>
      examples.filter((x) => x.file === e.split(':')[0]).map((x) => `  ${x.file}:${x.from}-${x.to} ~ ${x.other}`);
    expect(over.flatMap((e) => [e, ...where(e).slice(0, 5)])).toEqual([]);
  });

  it('duplication-allowed.ts is tight: a file with fewer duplicated lines than listed has its entry lowered', () => {
    expect(tighten).toEqual([]);
  });

  it('catches a copied block, in two files and in one (the check can fail)', () => {
    const block = Array.from({ length: MIN_LINES }, (_, i) => `  const v${i} = compute(${i}, 'x');`).join('\n');
    const a = { path: 'a.ts', text: `// a\n${block}\nfunction f() {}\n` };
    const b = { path: 'b.ts', text: `import x from 'y';\n\n${block.replace(/ {2}/g, '    ')}\n` };
    const c = { path: 'c.ts', text: `${block}\nother();\n${block}\n` };
    expect([...duplicatedWindows([a, b]).covered].map(([p, s]) => [p, s.size])).toEqual([['a.ts', MIN_LINES], ['b.ts', MIN_LINES]]);
    expect([...duplicatedWindows([c]).covered].map(([p, s]) => [p, s.size])).toEqual([['c.ts', 2 * MIN_LINES]]);
    expect(duplicatedWindows([a, { path: 'd.ts', text: 'other();\n' }]).covered.size).toBe(0);
  });
});
