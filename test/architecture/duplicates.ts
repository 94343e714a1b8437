/**
 * The duplication scan of duplication.test.ts, apart so a script can run it: windows of MIN_LINES
 * consecutive significant lines (blank lines, comments, imports and lone punctuation passed over,
 * white space folded) that stand identically in two places.
 */
import type { SourceFile } from './source-files.ts';

export const MIN_LINES = 8;

/** Product code, as the duplication check reads it: test/ and test/perf/ aside. */
export const isProduct = (path: string): boolean => !/^(test|bench)\//.test(path);
/** A window in more places than this is a shape (boilerplate), not a copy. */
const TOO_COMMON = 8;

/** The lines that count, folded, with their line numbers (1-based). */
export function significantLines(text: string): Array<{ text: string; line: number }> {
  const out: Array<{ text: string; line: number }> = [];
  let inComment = false;
  text.split('\n').forEach((raw, i) => {
    let l = raw.trim().replace(/\s+/g, ' ');
    if (inComment) {
      if (!l.includes('*/')) return;
      inComment = false;
      l = l.slice(l.indexOf('*/') + 2).trim();
    }
    if (l.startsWith('/*') && !l.includes('*/')) return void (inComment = true);
    if (l === '' || l.startsWith('//') || (l.startsWith('/*') && l.endsWith('*/')) || l.startsWith('* ') || l === '*') return;
    if (/^(import|export \{[^}]*\} from|export \* from)\b/.test(l) || /^[\s{}()[\];,:.]*$/.test(l) || /^[)}\]]+[);,]*$/.test(l)) return;
    out.push({ text: l, line: i + 1 });
  });
  return out;
}

export interface Duplicate { file: string; from: number; to: number; other: string }

/** Every window of MIN_LINES significant lines standing in two places (at most TOO_COMMON). */
export function duplicatedWindows(files: readonly SourceFile[]): { covered: Map<string, Set<number>>; examples: Duplicate[] } {
  const places = new Map<string, Array<{ file: string; at: number }>>();
  const lines = new Map(files.map((f) => [f.path, significantLines(f.text)]));
  for (const [file, ls] of lines) {
    for (let at = 0; at + MIN_LINES <= ls.length; at++) {
      const key = ls.slice(at, at + MIN_LINES).map((l) => l.text).join('\n');
      const list = places.get(key) ?? [];
      // Overlapping windows of one file (a run of identical lines) are one place.
      const last = list[list.length - 1];
      if (!(last?.file === file && at - last.at < MIN_LINES)) list.push({ file, at });
      places.set(key, list);
    }
  }
  const covered = new Map<string, Set<number>>();
  const examples: Duplicate[] = [];
  for (const list of places.values()) {
    if (list.length < 2 || list.length > TOO_COMMON) continue;
    for (const [k, p] of list.entries()) {
      const ls = lines.get(p.file)!;
      const set = covered.get(p.file) ?? new Set<number>();
      for (let j = p.at; j < p.at + MIN_LINES; j++) set.add(ls[j]!.line);
      covered.set(p.file, set);
      const o = list[(k + 1) % list.length]!;
      const other = `${o.file}:${lines.get(o.file)![o.at]!.line}`;
      examples.push({ file: p.file, from: ls[p.at]!.line, to: ls[p.at + MIN_LINES - 1]!.line, other });
    }
  }
  return { covered, examples };
}
