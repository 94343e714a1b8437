/**
 * A small structural diff of two JSON values: the paths where they differ, with both values, and
 * a pretty printer that marks those paths. Enough to see at a glance that only `amount` differs
 * in two screens of bodies; no dependency to inline.
 */
import { esc, trustedHtml, type Html } from './escape.ts';

export interface DiffEntry {
  /** JSONPath-like: `$`, `$.amount`, `$.items[2].code`. */
  path: string;
  kind: 'changed' | 'missing' | 'extra';
  expected?: unknown;
  actual?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return IDENT.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** Differing paths, depth-first, at most `max` of them (the rest are counted, not listed). */
export function diffJson(expected: unknown, actual: unknown, max = 50): { entries: DiffEntry[]; more: number } {
  const entries: DiffEntry[] = [];
  let more = 0;
  const push = (e: DiffEntry) => (entries.length < max ? entries.push(e) : more++);
  const walk = (a: unknown, b: unknown, path: string, depth: number) => {
    if (depth > 40) return push({ path, kind: 'changed', expected: a, actual: b });
    if (Array.isArray(a) && Array.isArray(b)) {
      for (let i = 0; i < Math.max(a.length, b.length); i++) {
        if (i >= b.length) push({ path: childPath(path, i), kind: 'missing', expected: a[i] });
        else if (i >= a.length) push({ path: childPath(path, i), kind: 'extra', actual: b[i] });
        else walk(a[i], b[i], childPath(path, i), depth + 1);
      }
      return;
    }
    if (isObject(a) && isObject(b)) {
      for (const k of Object.keys(a)) {
        if (!(k in b)) push({ path: childPath(path, k), kind: 'missing', expected: a[k] });
        else walk(a[k], b[k], childPath(path, k), depth + 1);
      }
      for (const k of Object.keys(b)) if (!(k in a)) push({ path: childPath(path, k), kind: 'extra', actual: b[k] });
      return;
    }
    if (!Object.is(a, b) && JSON.stringify(a) !== JSON.stringify(b)) push({ path, kind: 'changed', expected: a, actual: b });
  };
  walk(expected, actual, '$', 0);
  return { entries, more };
}

/** Parses a body as JSON when it is JSON; otherwise undefined. */
export function parseJsonBody(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  const t = text.trim();
  if (!t || !'{["'.includes(t[0]!)) return undefined;
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
}

/**
 * Pretty-printed JSON as escaped HTML, every value (or key/value pair) whose path is in `marked`
 * wrapped in `<mark class="d" data-path="…">`. Output is capped at `maxChars` of text.
 */
export function prettyJsonHtml(value: unknown, marked: ReadonlySet<string> = new Set(), maxChars = 20_000): Html {
  let budget = maxChars;
  const text = (s: string) => {
    if (budget <= 0) return '';
    const out = s.length > budget ? `${s.slice(0, budget)}…` : s;
    budget -= s.length;
    return esc(out);
  };
  const mark = (path: string, html: string) => (marked.has(path) ? `<mark class="d" data-path="${esc(path)}">${html}</mark>` : html);
  const walk = (v: unknown, path: string, indent: string): string => {
    const inner = `${indent}  `;
    if (Array.isArray(v)) {
      if (v.length === 0) return text('[]');
      const items = v.map((x, i) => `${text(inner)}${mark(childPath(path, i), walk(x, childPath(path, i), inner))}`);
      return `${text('[')}\n${items.join(`${text(',')}\n`)}\n${text(`${indent}]`)}`;
    }
    if (isObject(v)) {
      const keys = Object.keys(v);
      if (keys.length === 0) return text('{}');
      const items = keys.map((k) => {
        const p = childPath(path, k);
        return `${text(inner)}${mark(p, `${text(`${JSON.stringify(k)}: `)}${walk(v[k], p, inner)}`)}`;
      });
      return `${text('{')}\n${items.join(`${text(',')}\n`)}\n${text(`${indent}}`)}`;
    }
    return text(v === undefined ? 'undefined' : JSON.stringify(v));
  };
  // Built from esc() pieces only: every value and key above went through it.
  return trustedHtml(mark('$', walk(value, '$', '')));
}
