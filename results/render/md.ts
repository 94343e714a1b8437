/**
 * Markdown that escapes by default, for summary.md (a GitHub step summary, which renders HTML
 * and Markdown). `md\`…\`` is a tagged template: every interpolated value is Markdown text made
 * inert, unless it is itself `Md` (another `md\`…\``, a code span from `mdCode`, or our own
 * constant through `trustedMd`). A value:
 *
 * - stays on its line (line breaks become spaces: no new block, heading or table row);
 * - shows control, bidi and separator characters as visible escapes (core/inert.ts);
 * - cannot open HTML (`<`, `>`, `&` become entities) nor Markdown syntax that reaches past it
 *   (links, images, emphasis, code, strike-through, table pipes: `\ \` * _ [ ] | ~` are
 *   backslash-escaped). A value never starts a line, so line-start syntax (`#`, `-`, `1.`) is inert.
 */
import { inertLine } from '../../core/inert.ts';

export class Md {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type MdValue = Md | string | number | boolean | null | undefined | readonly MdValue[];

const oneLine = (s: string) => inertLine(s.replace(/\r\n|\r|\n/g, ' '));

/** Plain text in a Markdown paragraph or table cell. */
export function mdText(v: unknown): string {
  return oneLine(String(v))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]|~]/g, (c) => `\\${c}`);
}

function piece(v: MdValue): string {
  if (v instanceof Md) return v.text;
  if (v === undefined || v === null || v === false) return '';
  if (Array.isArray(v)) return v.map(piece).join('');
  return mdText(v);
}

export function md(strings: TemplateStringsArray, ...values: MdValue[]): Md {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += piece(values[i]!) + strings[i + 1]!;
  return new Md(out);
}

/** Our own Markdown (a heading, a table's separator row): never a value from a file. */
export function trustedMd(s: string): Md {
  return new Md(s);
}

/**
 * A code span holding any text: fenced by one backtick more than the longest run inside, padded
 * when it starts or ends with a backtick; a value holding `<`, `>` or `&` is escaped text instead. In a table cell (`cell`), pipes are
 * escaped, which GFM requires even inside code.
 */
export function mdCode(v: unknown, o: { cell?: boolean } = {}): Md {
  let s = oneLine(String(v));
  if (s === '') return new Md('');
  // No raw tag-like text even inside code (a renderer other than GitHub's may not honour the span): such a value is escaped text.
  if (/[<>&]/.test(s)) return new Md(mdText(s));
  if (o.cell) s = s.replace(/\|/g, '\\|');
  const longest = Math.max(0, ...[...s.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = s.startsWith('`') || s.endsWith('`') || (s.startsWith(' ') && s.endsWith(' ')) ? ' ' : '';
  return new Md(`${fence}${pad}${s}${pad}${fence}`);
}

/** Text cut to `max` characters (before escaping: a cut never splits an escape), with `…` when cut. */
export function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
