/**
 * No giant closures: no function-like node (declaration, method, arrow, function expression,
 * constructor, accessor) in the suite's own machinery spans more than MAX_LINES lines. A nested
 * function's lines count toward its parent too, so a function holding a large inner handler is
 * over until the handler is moved out. A function that is legitimately a data table (returns one
 * big literal) may be exempted only by the visible marker comment on the line above it; the
 * exemptions are counted and listed here so they stay few and deliberate.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');

export const MAX_LINES = 60;
export const TABLE_MARKER = '// function-length: data table';

/** The folders whose functions are measured: every folder of product code. */
const FOLDERS = ['catalogue', 'cli', 'core', 'load', 'merchant', 'references', 'results', 'service', 'suites'];

/** Top-level folders with TypeScript that are not product code, and why. Every other folder must be in FOLDERS. */
const NOT_PRODUCT: Readonly<Record<string, string>> = {
  test: "the project's own tests (and test/perf, the benches: measurements of the product, not the product)",
  node_modules: 'dependencies',
};

/**
 * A ratchet: functions found over the limit when the guard was widened to every folder, each with
 * the length it had (`file:function` → lines). A listed function may shrink, never grow; once it is
 * within the limit its entry must go (the test fails on an entry no longer over), so the list only
 * shortens. Nothing is added to it: split a long function instead. Empty since the last seven were
 * split (session 8); kept so the mechanism fails on an entry if one is ever added back.
 */
const PENDING: Readonly<Record<string, number>> = {};

/** Marked data tables allowed to be long (`file:function`); the test lists what it finds. */
const EXPECTED_TABLES: readonly string[] = ['catalogue/schemas/openapi.ts:buildOpenApiDocument'];

export interface LongFunction {
  file: string;
  name: string;
  line: number;
  lines: number;
  table: boolean;
}

function nameOf(node: ts.SignatureDeclaration, sf: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name) return node.name.getText(sf);
  const p = node.parent;
  if (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) return p.name.getText(sf);
  return `(anonymous@${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1})`;
}

/** The first line of the statement the function is written in (where a marker would sit above). */
function anchorLine(node: ts.Node, sf: ts.SourceFile): number {
  let n: ts.Node = node;
  while (
    n.parent &&
    !ts.isSourceFile(n.parent) &&
    (ts.isVariableDeclaration(n.parent) || ts.isVariableDeclarationList(n.parent) || ts.isVariableStatement(n.parent) || ts.isPropertyAssignment(n.parent) || ts.isPropertyDeclaration(n.parent) || ts.isExportAssignment(n.parent))
  ) {
    n = n.parent;
  }
  return sf.getLineAndCharacterOfPosition(n.getStart(sf)).line;
}

/** Every function-like node of `text` whose body spans more than `max` lines. */
export function longFunctions(file: string, text: string, max = MAX_LINES): LongFunction[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lines = text.split('\n');
  const out: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const body = node.body as ts.Node;
      const first = sf.getLineAndCharacterOfPosition(body.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(body.getEnd()).line;
      const span = last - first + 1;
      if (span > max) {
        const anchor = anchorLine(node, sf);
        const table = (lines[anchor - 1] ?? '').trim() === TABLE_MARKER;
        out.push({ file, name: nameOf(node, sf), line: first + 1, lines: span, table });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [p] : [];
  });
}

const found = FOLDERS.flatMap((f) => sources(join(ROOT, f))).flatMap((p) => {
  const file = relative(ROOT, p).split(sep).join('/');
  return longFunctions(file, readFileSync(p, 'utf8'));
});
const keyOf = (f: LongFunction) => `${f.file}:${f.name}`;

describe(`function length (≤ ${MAX_LINES} lines)`, () => {
  it('measures something: every folder exists and has TypeScript files', () => {
    for (const f of FOLDERS) expect(sources(join(ROOT, f)).length, f).toBeGreaterThan(0);
  });

  it('measures every folder of product code: each top-level folder with TypeScript is measured or named as not product', () => {
    const unmeasured = readdirSync(ROOT, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.') && !FOLDERS.includes(e.name) && !(e.name in NOT_PRODUCT))
      .map((e) => e.name)
      .filter((name) => sources(join(ROOT, name)).length > 0);
    expect(unmeasured).toEqual([]);
  });

  it('no function is longer than the limit (except marked data tables and the PENDING list)', () => {
    const over = found.filter((f) => !f.table && !(keyOf(f) in PENDING)).map((f) => `${f.file}:${f.line} ${f.name} is ${f.lines} lines`);
    expect(over).toEqual([]);
  });

  it('the PENDING ratchet: a listed function never grows, and its entry goes once it is within the limit', () => {
    const still = new Map(found.filter((f) => !f.table).map((f) => [keyOf(f), f.lines]));
    expect(Object.keys(PENDING).filter((k) => !still.has(k)), 'within the limit now: remove from PENDING').toEqual([]);
    const grown = Object.entries(PENDING).filter(([k, lines]) => (still.get(k) ?? 0) > lines).map(([k, lines]) => `${k} grew from ${lines} to ${still.get(k)} lines`);
    expect(grown).toEqual([]);
    console.log(`function length: ${Object.keys(PENDING).length} PENDING — ${Object.entries(PENDING).map(([k, lines]) => `${k} (${lines})`).join(', ')}`);
  });

  it('data-table exemptions are the expected, visible ones', () => {
    expect(found.filter((f) => f.table).map(keyOf).sort()).toEqual([...EXPECTED_TABLES].sort());
  });
});

describe('the length check can fail', () => {
  const long = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');

  it('reports a planted long function, and a short one not', () => {
    const text = `export function giant() {\n${long(70)}\n}\nexport const small = () => {\n${long(10)}\n};\n`;
    expect(longFunctions('planted.ts', text).map((f) => [f.name, f.lines])).toEqual([['giant', 72]]);
  });

  it('a nested handler counts toward its parent (and is reported itself when long)', () => {
    const text = `export function startThing() {\n  const a = 1;\n  const handler = (req: unknown) => {\n${long(65)}\n  };\n  return handler;\n}\n`;
    expect(longFunctions('planted.ts', text).map((f) => f.name)).toEqual(['startThing', 'handler']);
    const short = `export function parent() {\n  const handler = () => {\n${long(40)}\n  };\n${long(25)}\n  return handler;\n}\n`;
    expect(longFunctions('planted.ts', short).map((f) => [f.name, f.lines])).toEqual([['parent', 70]]);
  });

  it('methods, constructors, accessors and function expressions are measured', () => {
    const text = `class A {\n  constructor() {\n${long(61)}\n  }\n  get x() {\n${long(61)}\n    return 1;\n  }\n  m() {\n${long(61)}\n  }\n}\nconst f = function () {\n${long(61)}\n};\n`;
    expect(longFunctions('planted.ts', text).map((f) => f.name)).toEqual(['constructor', 'x', 'm', 'f']);
  });

  it('only the marker on the line above exempts a data table', () => {
    const table = `{\n  return {\n${long(70).replace(/const (v\d+) = (\d+);/g, '$1: $2,')}\n  };\n}`;
    const marked = `${TABLE_MARKER}\nexport function table() ${table}\n`;
    const markedConst = `${TABLE_MARKER}\nexport const table = () => ${table};\n`;
    const unmarked = `// a data table\nexport function table() ${table}\n`;
    expect(longFunctions('planted.ts', marked).map((f) => f.table)).toEqual([true]);
    expect(longFunctions('planted.ts', markedConst).map((f) => f.table)).toEqual([true]);
    expect(longFunctions('planted.ts', unmarked).map((f) => f.table)).toEqual([false]);
  });
});
