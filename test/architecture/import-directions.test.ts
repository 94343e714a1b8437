/**
 * Dependencies point one way. Each top-level folder may import only from the folders listed
 * for it; the reference implementations (references/service/, references/receiver/) and the sink import
 * nothing from the suite side, so a mistake in the oracle can never hide in the thing it judges.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');

/**
 * The groups at the root and the groups each may import from (itself always allowed): the
 * catalogue and the references at the bottom, core above them, results above core; the service
 * side, the merchant side and load each above results and never importing one another; the
 * command line over all. suites/ (the rules) sit on the service side's harness, its worker room.
 */
export const GROUPS: Readonly<Record<string, readonly string[]>> = {
  catalogue: [],
  references: [],
  core: ['catalogue', 'references'],
  results: ['core', 'catalogue'],
  service: ['results', 'core', 'catalogue', 'references'],
  merchant: ['results', 'core', 'catalogue', 'references'],
  load: ['results', 'core', 'catalogue'],
  suites: ['service', 'results', 'core', 'catalogue'],
  cli: ['service', 'merchant', 'load', 'results', 'core', 'catalogue', 'references'],
  bin: ['cli'],
};

/** Room (a group's folder, or a group with no rooms) → the rooms it may import from (itself always allowed). */
export const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  catalogue: [],
  'catalogue/schemas': ['catalogue'],
  'catalogue/report': ['catalogue'],
  // The seam mechanism of planted faults, shared by the three references; it imports nothing.
  'references/seams': [],
  'references/service': ['references/seams'],
  'references/receiver': ['references/seams'],
  'references/client': ['references/seams'],
  'service/sink': [],
  'service/generators': ['catalogue', 'catalogue/schemas'],
  core: ['catalogue', 'catalogue/schemas', 'catalogue/report'],
  // Starting the reference server as a target, and the preflight that checks any target first.
  'core/targets': ['core', 'references/service'],
  'results/render': ['catalogue/report', 'catalogue', 'core'],
  'results/verdict': ['core', 'catalogue/report', 'catalogue', 'catalogue/schemas', 'results/render'],
  // The harness by process. What the two processes must agree on (which areas take the target alone); imports nothing.
  'service/harness/common': [],
  // What runs inside the suite workers: the rule API (ruleTest, expect, cases, depth, the wait clock)
  // and its parts. The suites import only this room of the harness; it never imports the main process's.
  'service/harness/worker': ['service/harness/common', 'core', 'results/verdict', 'catalogue/report', 'catalogue'],
  // What the main process runs: one run of the suites (the vitest bridge, the schedule, progress,
  // the results log, the report files, the embedded reference). It starts the workers by path, never imports them.
  'service/harness/main': [
    'service/harness/common', 'core', 'core/targets', 'service/sink', 'results/verdict', 'catalogue/report', 'results/render', 'catalogue',
    'catalogue/schemas',
  ],
  suites: ['service/harness/worker', 'core', 'service/generators', 'catalogue/schemas', 'catalogue', 'service/sink', 'catalogue/report'],
  'service/mutation': [
    'service/harness/main', 'results/verdict', 'core/targets', 'core', 'catalogue/report', 'catalogue', 'references/service',
  ],
  load: ['core', 'core/targets', 'results/verdict', 'catalogue/report', 'results/render', 'catalogue/schemas', 'catalogue'],
  'merchant/receiver': ['core', 'results/verdict', 'catalogue/report', 'results/render', 'catalogue', 'references/receiver'],
  'service/judge': ['core', 'results/verdict', 'catalogue/report', 'results/render', 'catalogue', 'service/sink'],
  'merchant/client': [
    'core', 'results/verdict', 'catalogue/report', 'results/render', 'catalogue', 'references/service', 'references/client', 'core/targets',
  ],
  // service/generators: the fixed case tables, listed by `run --dry-run --cases` and checked for `--case`.
  cli: [
    'core', 'core/targets', 'service/harness/main', 'results/verdict', 'service/mutation', 'load', 'merchant/receiver', 'merchant/client',
    'service/judge', 'references/service', 'references/receiver', 'service/sink', 'catalogue/report', 'results/render', 'catalogue',
    'catalogue/schemas', 'service/generators',
  ],
  bin: ['cli'],
};

/** The room of a path: the longest room of the table it lies in (three folders deep at most), else its top-level folder. */
export function roomOf(rel: string): string {
  const parts = rel.split(sep);
  for (const depth of [3, 2]) {
    const room = parts.slice(0, depth).join('/');
    if (parts.length > depth && room in ALLOWED) return room;
  }
  return parts[0]!;
}

/**
 * Leaf files any folder may import: each imports nothing of the project itself (checked below), so importing it
 * cannot pull a folder's code into another. core/error-codes.ts is the one table of error codes,
 * which the webhook sink's errors take their codes from too; core/undici.ts is undici's parts the
 * project uses, loaded without undici's index (the sink's client, in every suite worker, too).
 */
export const LEAF_FILES: readonly string[] = ['core/error-codes.ts', 'core/undici.ts'];

const SKIP = new Set(['node_modules', '.git', 'test', 'docs', '.hps', '.ci']);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return SKIP.has(name) || name === 'runs' ? [] : sources(p);
    return /\.(ts|mjs)$/.test(name) && !name.endsWith('.spec.ts') ? [p] : [];
  });
}

const topOf = (p: string) => roomOf(relative(ROOT, p));
const groupOf = (room: string) => room.split('/')[0]!;

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
  it('every folder with code has a row in the table, and every group one in the group table', () => {
    const rooms = [...new Set(files.map(topOf))].sort();
    expect(rooms.filter((f) => !(f in ALLOWED))).toEqual([]);
    expect([...new Set(rooms.map(groupOf))].filter((g) => !(g in GROUPS))).toEqual([]);
    const isRoot = (n: string) => statSync(join(ROOT, n)).isDirectory() && !n.startsWith('.') && n !== 'node_modules' && n !== 'reports';
    expect(readdirSync(ROOT).filter(isRoot).length).toBeLessThanOrEqual(12);
  });

  it('no file imports from a folder its own folder may not depend on', () => {
    const violations = files.flatMap((file) => {
      const from = topOf(file);
      const allowed = new Set([from, ...(ALLOWED[from] ?? [])]);
      return importedFolders(file)
        .filter((i) => !allowed.has(i.folder) && !LEAF_FILES.includes(relative(ROOT, resolve(dirname(file), i.spec))))
        .map((i) => `${relative(ROOT, file)} imports ${i.spec} (${from} → ${i.folder} is not allowed)`);
    });
    expect(violations).toEqual([]);
  });

  it('the room table agrees with the group table: a room imports only rooms of its own group or of groups its group may import', () => {
    const wrong = Object.entries(ALLOWED).flatMap(([room, targets]) =>
      targets.filter((t) => groupOf(t) !== groupOf(room) && !(GROUPS[groupOf(room)] ?? []).includes(groupOf(t)))
        .map((t) => `${room} → ${t}`));
    expect(wrong).toEqual([]);
  });

  it('the service side, the merchant side and load never import one another', () => {
    const sides = ['service', 'merchant', 'load'];
    expect(sides.flatMap((a) => (GROUPS[a] ?? []).filter((b) => sides.includes(b)).map((b) => `${a} → ${b}`))).toEqual([]);
  });

  it('the suite workers\' code never reaches the main process\'s harness, nor the main process the workers\'', () => {
    const reach = (room: string, seen = new Set<string>()): Set<string> => {
      for (const r of ALLOWED[room] ?? []) if (!seen.has(r)) reach(r, seen.add(r));
      return seen;
    };
    const [worker, main] = ['service/harness/worker', 'service/harness/main'];
    for (const room of ['suites', worker]) expect([...reach(room)]).not.toContain(main);
    for (const room of [main, 'service/mutation', 'cli']) expect([...reach(room)]).not.toContain(worker);
    expect(roomOf(join('service', 'harness', 'worker', 'x.ts'))).toBe('service/harness/worker');
    expect(roomOf(join('service', 'harness', 'x.ts'))).toBe('service');
  });

  it('a leaf file any folder may import imports nothing of the project itself', () => {
    expect(LEAF_FILES.flatMap((f) => importedFolders(join(ROOT, f)).map((i) => `${f} imports ${i.spec}`))).toEqual([]);
    // Nothing of the project's own (a package or a node: module pulls no folder's code).
    const own = /\bfrom\s*['"]\.|\bimport\s*\(\s*['"]\./;
    expect(LEAF_FILES.flatMap((f) => (own.test(readFileSync(join(ROOT, f), 'utf8')) ? [f] : []))).toEqual([]);
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
    const groupSeen = new Map<string, 'open' | 'done'>();
    const groupCycle: string[] = [];
    const visitGroup = (g: string, path: string[]): void => {
      if (groupSeen.get(g) === 'done' || groupCycle.length) return;
      if (groupSeen.get(g) === 'open') return void groupCycle.push(...path, g);
      groupSeen.set(g, 'open');
      for (const h of GROUPS[g] ?? []) visitGroup(h, [...path, g]);
      groupSeen.set(g, 'done');
    };
    for (const g of Object.keys(GROUPS)) visitGroup(g, []);
    expect(groupCycle).toEqual([]);
  });

  it('catches a forbidden import (the check can fail)', () => {
    const fake = join(ROOT, 'references', 'service', 'x.ts');
    const spec = '../../catalogue/index.ts';
    expect(topOf(resolve(dirname(fake), spec))).toBe('catalogue');
    expect(ALLOWED['references/service']).not.toContain('catalogue');
  });
});

/** Every file → the files it imports (relative imports that land on a file of the project). */
function fileGraph(all: readonly string[]): Map<string, string[]> {
  const known = new Set(all);
  return new Map(all.map((f) => [f, importedFolders(f).map((i) => resolve(dirname(f), i.spec)).filter((t) => known.has(t))]));
}

/** The circles of a graph: its strongly connected components of more than one file, or a file importing itself (Tarjan). */
export function fileCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const strongConnect = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        strongConnect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) strongConnect(v);
  return out;
}

/** Circles still to be broken (empty it as they go). */
const CYCLES_PENDING: readonly string[] = [];

describe('import cycles between files', () => {
  it('no product file reaches itself through its imports (static, dynamic or type-only)', () => {
    const cycles = fileCycles(fileGraph(files)).map((c) => c.map((f) => relative(ROOT, f)).join(' ⇄ '));
    expect(cycles.filter((c) => !CYCLES_PENDING.includes(c))).toEqual([]);
    expect(CYCLES_PENDING.filter((c) => !cycles.includes(c))).toEqual([]);
  });

  it('catches a circle (the check can fail)', () => {
    const graph = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']], ['e', ['e']]]);
    expect(fileCycles(graph)).toEqual([['a', 'b', 'c'], ['e']]);
  });
});
