/**
 * Which mutants `npm run mutation:auto` runs. Stryker's own instrumenter lists every mutant of the
 * decision files (the same mutants, at the same places, as the run instruments); a mutant enclosing
 * a planted fault's table (`faulty: {...}`, `FAULTY_STEPS`) or in a helper of the file only that
 * code calls is left out, as that code never runs unless `--fault` switches it on. Then a
 * seed-chosen sample of *sites*: a site is the place of one mutated node, given to Stryker as a
 * `mutate` range (`file:line:col-line:col`), which selects the mutants of that node and of the
 * nodes inside it. Sites are taken in a seeded order until the
 * budget is reached; a site that would take more than `siteCap` mutants (a whole function body) is
 * passed over, its inner sites stay candidates. The same seed and files give the same ranges.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Instrumenter } from '@stryker-mutator/instrumenter';
import ts from 'typescript';
import { seededRandom, shuffled } from '../../core/seeded-random.ts';

/** Stryker's positions: line from 0, column from 0. */
interface Position {
  readonly line: number;
  readonly column: number;
}
interface Span {
  readonly start: Position;
  readonly end: Position;
}

export interface ListedMutant {
  readonly file: string;
  readonly location: Span;
  readonly mutatorName: string;
  readonly replacement: string;
  /** Inside (or enclosing) a planted fault's table: left out of every run. */
  readonly planted: boolean;
}

export interface Sample {
  /** Stryker `mutate` entries, `file:line:col-line:col` (line from 1, column from 0, as Stryker reads them). */
  readonly mutate: string[];
  /** The mutants the ranges select. */
  readonly mutants: number;
  /** The mutants a run may select: those of the files, planted tables left out. */
  readonly eligible: number;
}

const QUIET_LOGGER = {
  isTraceEnabled: () => false,
  isDebugEnabled: () => false,
  isInfoEnabled: () => false,
  isWarnEnabled: () => false,
  isErrorEnabled: () => false,
  isFatalEnabled: () => false,
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
  fatal() {},
};

/**
 * The offsets [start, end) of the planted faults' code of a file: `faulty` properties and the
 * FAULTY_STEPS declaration, and the file's own helpers (a function not exported) that only that
 * code calls, directly or through another such helper (`blockSlotOf`, `refuseLimit`,
 * `stringFieldsCoerced`…: 11 of the first measured run's 32 survivors).
 */
function plantedOffsets(file: string, text: string): Array<[number, number]> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Array<[number, number]> = [];
  const visit = (node: ts.Node): void => {
    const named = ts.isPropertyAssignment(node) || ts.isVariableDeclaration(node) ? node.name.getText(source) : '';
    if (named === 'faulty' || named === 'FAULTY_STEPS') out.push([node.getStart(source), node.end]);
    else ts.forEachChild(node, visit);
  };
  visit(source);
  const helpers = localHelpers(source);
  const uses = identifierUses(source, new Set(helpers.keys()));
  const inside = (at: number) => out.some(([s, e]) => s <= at && at < e);
  for (let changed = true; changed;) {
    changed = false;
    for (const [name, node] of helpers) {
      const own = (at: number) => node.getStart(source) <= at && at < node.end;
      const refs = (uses.get(name) ?? []).filter((at) => !own(at));
      if (refs.length > 0 && refs.every(inside)) {
        out.push([node.getStart(source), node.end]);
        helpers.delete(name);
        changed = true;
      }
    }
  }
  return out;
}

/** The file's top-level functions not exported (declarations, and consts holding a function), by name. */
function localHelpers(source: ts.SourceFile): Map<string, ts.Node> {
  const out = new Map<string, ts.Node>();
  const exported = (n: ts.Node) => ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const st of source.statements) {
    if (ts.isFunctionDeclaration(st) && st.name && !exported(st)) out.set(st.name.text, st);
    if (!ts.isVariableStatement(st) || exported(st) || st.declarationList.declarations.length !== 1) continue;
    const d = st.declarationList.declarations[0]!;
    const fn = d.initializer && (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer));
    if (fn && ts.isIdentifier(d.name)) out.set(d.name.text, st);
  }
  return out;
}

/** Where each of `names` is used as an identifier (offsets), its declaring name left out. */
function identifierUses(source: ts.SourceFile, names: ReadonlySet<string>): Map<string, number[]> {
  const out = new Map<string, number[]>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && names.has(node.text)) {
      const p = node.parent;
      const declares = (ts.isFunctionDeclaration(p) || ts.isVariableDeclaration(p)) && p.name === node;
      if (!declares) out.set(node.text, [...(out.get(node.text) ?? []), node.getStart(source)]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

function offsetOf(lineStarts: readonly number[], { line, column }: Position): number {
  return lineStarts[line]! + column;
}

/** Every mutant Stryker generates in `files` (paths relative to `root`), marked planted or not. */
export async function listMutants(root: string, files: readonly string[]): Promise<ListedMutant[]> {
  const texts = new Map(files.map((f) => [f, readFileSync(join(root, f), 'utf8')]));
  const instrumenter = new Instrumenter(QUIET_LOGGER);
  const input = files.map((name) => ({ name, content: texts.get(name)!, mutate: true as const }));
  const { mutants } = await instrumenter.instrument(input, { plugins: null, excludedMutations: [], ignorers: [] });
  const planted = new Map<string, { starts: number[]; regions: Array<[number, number]> }>();
  for (const [file, text] of texts) {
    const starts = [0];
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    planted.set(file, { starts, regions: plantedOffsets(file, text) });
  }
  return mutants.map((m) => {
    const { starts, regions } = planted.get(m.fileName)!;
    const [from, to] = [offsetOf(starts, m.location.start), offsetOf(starts, m.location.end)];
    const overlaps = regions.some(([s, e]) => from < e && s < to);
    return { file: m.fileName, location: m.location, mutatorName: m.mutatorName, replacement: m.replacement, planted: overlaps };
  });
}

const before = (a: Position, b: Position) => a.line < b.line || (a.line === b.line && a.column <= b.column);
const within = (outer: Span, inner: Span) => before(outer.start, inner.start) && before(inner.end, outer.end);
const siteKey = (file: string, { start, end }: Span) => `${file}:${start.line + 1}:${start.column}-${end.line + 1}:${end.column}`;

export interface SampleOptions {
  readonly seed: number;
  /** At most this many mutants; Infinity: every eligible site. */
  readonly budget: number;
  /** A site selecting more mutants than this is passed over (default 8; Infinity with --all). */
  readonly siteCap?: number;
}

/** The seeded sample of sites (see the module comment) of `mutants`. */
export function sampleSites(mutants: readonly ListedMutant[], { seed, budget, siteCap = 8 }: SampleOptions): Sample {
  const byFile = new Map<string, ListedMutant[]>();
  for (const m of mutants) byFile.set(m.file, [...(byFile.get(m.file) ?? []), m]);
  const sites = new Map<string, ListedMutant[]>();
  for (const m of mutants) {
    const key = siteKey(m.file, m.location);
    if (m.planted || sites.has(key)) continue;
    const inside = byFile.get(m.file)!.filter((n) => within(m.location, n.location));
    if (!inside.some((n) => n.planted)) sites.set(key, inside);
  }
  const chosen = new Set<ListedMutant>();
  const mutate: string[] = [];
  for (const key of shuffled([...sites.keys()].sort(), seededRandom(seed))) {
    if (chosen.size >= budget) break;
    const inside = sites.get(key)!;
    const added = inside.filter((m) => !chosen.has(m));
    if (inside.length > siteCap || chosen.size + added.length > budget || added.length === 0) continue;
    for (const m of added) chosen.add(m);
    mutate.push(key);
  }
  return { mutate, mutants: chosen.size, eligible: mutants.filter((m) => !m.planted).length };
}
