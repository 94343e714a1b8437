/**
 * One error scheme: every error the tool raises has a stable code from core/error-codes.ts (static
 * scan of product code, test/ and test/perf/ aside). Each class extending Error (or an error class of
 * ours) takes its code from the table's types (`satisfies ErrorCode`, a `*ErrorCode` parameter, or
 * a coded parent); every code literal thrown or compared is in the table; every code of the table
 * is raised somewhere. A plain `new Error(` is a broken invariant of the tool: HPS_ERR_INTERNAL.
 * The reference implementations (references/service/, references/receiver/, docs/examples/) and the seams they
 * share are the code under test: their errors are the API's answers, not the tool's.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../core/error-codes.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const NOT_THE_TOOL = new Set([
  'node_modules', '.git', '.hps', '.ci', 'reports', 'test', 'docs',
  // The reference implementations (service, receiver, client) and their seams: the API's answers, not the tool's errors.
  'references',
]);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return NOT_THE_TOOL.has(name) ? [] : sources(p);
    return /\.(ts|mjs)$/.test(name) ? [p] : [];
  });
}

const files = readdirSync(ROOT)
  .filter((n) => !NOT_THE_TOOL.has(n) && statSync(join(ROOT, n)).isDirectory())
  .flatMap((n) => sources(join(ROOT, n)))
  .map((f) => ({ path: relative(ROOT, f), text: readFileSync(f, 'utf8') }));

export interface ErrorClass { file: string; name: string; parent: string; body: string }

/** The classes extending an error class in a text, with their bodies (to the closing brace at column 0). */
export function errorClasses(file: string, text: string): ErrorClass[] {
  const found = text.matchAll(/^(?:export )?class (\w+) extends (\w*Error|Mismatch)\b[^\n]*\n([\s\S]*?)^\}/gm);
  return [...found].map((m) => ({ file, name: m[1]!, parent: m[2]!, body: m[3]! }));
}

/** A class takes its code from the table: `satisfies …ErrorCode`, or a code typed by one of the table's types. */
export const takesTableCode = (c: ErrorClass): boolean => /\bcode\b[^\n]*\b\w*ErrorCode\b/.test(c.body);

/** Code-shaped literals in an error context: thrown, constructed, or compared/assigned as a `code`. */
export function codeLiterals(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\bnew \w*Error\(([^;]*)/g)) for (const l of m[1]!.matchAll(/'((?:HPS|SINK)_[A-Z_]+)'/g)) out.push(l[1]!);
  for (const m of text.matchAll(/\bcode\s*(?:===|!==|:|=)\s*'((?:HPS|SINK)_[A-Z_]+)'/g)) out.push(m[1]!);
  return out;
}

describe('one error scheme (core/error-codes.ts)', () => {
  const classes = files.flatMap((f) => errorClasses(f.path, f.text));

  it('finds the error classes (the scan is not empty)', () => {
    const expected = ['HarnessError', 'TransportError', 'ConnectionError', 'SinkError', 'RuleTimeout', 'SkipRule', 'Mismatch'];
    expect(classes.map((c) => c.name)).toEqual(expect.arrayContaining(expected));
  });

  it('every error class of the tool takes its code from the table', () => {
    const coded = new Set(classes.filter(takesTableCode).map((c) => c.name));
    const uncoded = classes.filter((c) => !coded.has(c.name) && !coded.has(c.parent)).map((c) => `${c.file}: class ${c.name}`);
    expect(uncoded).toEqual([]);
  });

  it('every code thrown, constructed or compared is in the table', () => {
    const unknown = files.flatMap((f) => codeLiterals(f.text).filter((c) => !(c in ERROR_CODES)).map((c) => `${f.path}: ${c}`));
    expect(unknown).toEqual([]);
  });

  it('every code of the table is raised somewhere (none left over)', () => {
    const all = files.filter((f) => f.path !== join('core', 'error-codes.ts')).map((f) => f.text).join('\n');
    expect(Object.keys(ERROR_CODES).filter((c) => !all.includes(`'${c}'`))).toEqual([]);
  });

  it('catches an uncoded class and an unknown code (the check can fail)', () => {
    const text = "export class Oops extends Error {\n  readonly code = 'X';\n}\nthrow new ConnectionError('m', 'HPS_NOPE');\n";
    expect(errorClasses('x.ts', text).filter((c) => !takesTableCode(c)).map((c) => c.name)).toEqual(['Oops']);
    expect(codeLiterals(text)).toEqual(['HPS_NOPE']);
  });
});
