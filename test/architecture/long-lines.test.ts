/**
 * No line over MAX_LINE characters in any .ts/.mjs file of the tree, tests and benches included
 * (they are read as often as the product; node_modules and hidden folders aside). The files that
 * had long lines when the check came in are listed in long-lines-allowed.ts with their count: a
 * ratchet. A listed file may not gain a long line, and when it has fewer than listed the test fails
 * until the entry is lowered (or removed at 0), so the list only shrinks. Nothing is added to it:
 * break the line instead.
 */
import { describe, expect, it } from 'vitest';
import { LONG_LINES_ALLOWED } from './long-lines-allowed.ts';
import { MAX_LINE, ratchet, sourceFiles } from './source-files.ts';

/** How many lines of a text are over MAX_LINE characters, and the first of them (1-based). */
export function longLines(text: string): { count: number; first: number } {
  let count = 0;
  let first = 0;
  text.split('\n').forEach((line, i) => {
    if (line.length <= MAX_LINE) return;
    count++;
    first ||= i + 1;
  });
  return { count, first };
}

describe(`no line over ${MAX_LINE} characters`, () => {
  const files = sourceFiles();
  const found = new Map(files.flatMap((f) => {
    const { count } = longLines(f.text);
    return count > 0 ? [[f.path, count] as const] : [];
  }));
  const { over, tighten } = ratchet(found, LONG_LINES_ALLOWED);

  it('no file has more long lines than long-lines-allowed.ts lets it (break the new ones)', () => {
    const first = new Map(files.map((f) => [f.path, longLines(f.text).first]));
    expect(over.map((e) => `${e}, the first at line ${first.get(e.split(':')[0]!)}`)).toEqual([]);
  });

  it('long-lines-allowed.ts is tight: a file with fewer long lines than listed has its entry lowered', () => {
    expect(tighten).toEqual([]);
  });

  it('catches a long line and a loose entry (the check can fail)', () => {
    expect(longLines(`ok\n${'x'.repeat(MAX_LINE + 1)}\n${'y'.repeat(MAX_LINE)}`)).toEqual({ count: 1, first: 2 });
    expect(ratchet(new Map([['a.ts', 2], ['b.ts', 1]]), { 'a.ts': 1, 'c.ts': 3 })).toEqual({
      over: ['a.ts: 2 (allowed 1)', 'b.ts: 1 (allowed 0)'],
      tighten: ["'c.ts': 0 (listed 3: lower it, or remove the entry)"],
    });
  });
});
