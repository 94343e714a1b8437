/**
 * Which rule files a selection needs. A rule file is run for the rules it states by hand
 * (`ruleTest('<ID>'`, the id written out); an area one of whose selected rules no file of it states
 * by hand (a test made from a table, suites/create/field-rules.ts) runs every file of the area, as
 * before. A file loaded for nothing costs its module evaluation in a worker, and a run of one rule
 * needs fewer workers: a replay, a mutant's declared rules (`mutation`), the tool's own tests.
 * test/architecture/suite-helpers.test.ts holds the one place a test is made from a table.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Rule } from '../../../catalogue/index.ts';
import { PACKAGE_ROOT } from '../../../core/package-root.ts';

const SUITES = join(PACKAGE_ROOT, 'suites');
const STATED = /ruleTest\(\s*'([A-Z0-9-]+)'/g;

interface AreaFiles {
  /** Absolute paths, with `/`, as vitest names modules. */
  files: string[];
  statedBy: Map<string, string[]>;
}

const cache = new Map<string, AreaFiles>();

function areaFiles(area: string): AreaFiles {
  let a = cache.get(area);
  if (!a) {
    const dir = join(SUITES, area);
    const files = readdirSync(dir).filter((n) => n.endsWith('.rules.ts')).map((n) => join(dir, n).split('\\').join('/'));
    const statedBy = new Map<string, string[]>();
    for (const f of files) {
      for (const m of readFileSync(f, 'utf8').matchAll(STATED)) statedBy.set(m[1]!, [...(statedBy.get(m[1]!) ?? []), f]);
    }
    a = { files, statedBy };
    cache.set(area, a);
  }
  return a;
}

/** The rule files (absolute, `/`) the selected rules need. */
export function ruleFilesFor(selected: readonly Rule[]): Set<string> {
  const byArea = new Map<string, string[]>();
  for (const r of selected) byArea.set(r.area, [...(byArea.get(r.area) ?? []), r.id]);
  const out = new Set<string>();
  for (const [area, ids] of byArea) {
    const a = areaFiles(area);
    const stated = ids.map((id) => a.statedBy.get(id));
    const files = stated.every((s) => s !== undefined) ? stated.flat() as string[] : a.files;
    for (const f of files) out.add(f);
  }
  return out;
}
