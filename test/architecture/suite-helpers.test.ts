/**
 * Suite helpers live in one place. A file under suites/<area>/ imports, from suites/, only its
 * own folder and suites/_shared/; a helper two areas use lives in suites/_shared/ (and imports
 * no area), so no area's folder is another's library. What a suite imports from outside suites/
 * is held to the import-direction table by import-directions.test.ts. Rule files end in .rules.ts:
 * one named *.test.ts would be run by neither the suite session nor the project's own vitest.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const SUITES = join(ROOT, 'suites');
const SHARED = '_shared';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : name.endsWith('.ts') ? [p] : [];
  });
}

/** The folder directly under suites/ that a path lies in ('' for a file at suites/ itself). */
function areaOf(p: string): string {
  const parts = relative(SUITES, p).split(sep);
  return parts.length > 1 ? parts[0]! : '';
}

/** Relative imports (static, dynamic, export … from) of `text`, written in `file`, that land in suites/. */
function suiteImports(file: string, text: string): Array<{ spec: string; area: string }> {
  const out: Array<{ spec: string; area: string }> = [];
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const target = resolve(dirname(file), m[1]!);
    if (!relative(SUITES, target).startsWith('..')) out.push({ spec: m[1]!, area: areaOf(target) });
  }
  return out;
}

/** What is wrong with one file's imports inside suites/. */
export function violationsOf(file: string, text: string): string[] {
  const from = areaOf(file);
  const name = relative(ROOT, file);
  if (from === '') return [`${name}: a file directly under suites/ (put it in an area folder or in suites/${SHARED}/)`];
  // A rule file named like a test would be collected by nothing: the suite session runs *.rules.ts only.
  const runs = 'service/harness/main/suite-session.ts runs those';
  if (/\.(test|spec)\.[cm]?[jt]s$/.test(name)) return [`${name}: a rule file ends in .rules.ts (${runs})`];
  return suiteImports(file, text)
    .filter((i) => i.area !== from && (from === SHARED || i.area !== SHARED))
    .map((i) => `${name} imports ${i.spec} (suites/${from} → suites/${i.area || '.'}: ${from === SHARED ? `suites/${SHARED}/ imports no area` : `only its own folder and suites/${SHARED}/`})`);
}

const files = sources(SUITES);

describe('suite helpers', () => {
  it('no suites/<area>/ file imports another area’s folder; suites/_shared/ imports no area', () => {
    expect(files.flatMap((f) => violationsOf(f, readFileSync(f, 'utf8')))).toEqual([]);
  });

  it('every suites/_shared/ module is used by at least two areas (otherwise it belongs to that area)', () => {
    const users = new Map<string, Set<string>>();
    for (const f of files) {
      if (areaOf(f) === SHARED) continue;
      for (const m of readFileSync(f, 'utf8').matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)) {
        const target = resolve(dirname(f), m[1]!);
        if (areaOf(target) === SHARED) (users.get(target) ?? users.set(target, new Set()).get(target)!).add(areaOf(f));
      }
    }
    const shared = files.filter((f) => areaOf(f) === SHARED);
    // A shared module may serve the areas through another shared module (arrivals → deliveries).
    const usedThroughShared = new Set(shared.flatMap((f) => suiteImports(
      f,
      readFileSync(f, 'utf8'),
    ).map((i) => resolve(dirname(f), i.spec))));
    const lonely = shared
      .filter((f) => (users.get(f)?.size ?? 0) < 2 && !usedThroughShared.has(f))
      .map((f) => `${relative(ROOT, f)} is used by ${[...(users.get(f) ?? [])].join(', ') || 'no area'}`);
    expect(lonely).toEqual([]);
  });

  it('catches a planted cross-area import, and lets own-folder and _shared imports through (the check can fail)', () => {
    const routing = join(SUITES, 'routing', 'x.rules.ts');
    expect(violationsOf(routing, `import { newSubject } from '../auth/support.ts';`)).toHaveLength(1);
    expect(violationsOf(routing, `const m = await import('../idempotency/lookup.ts');`)).toHaveLength(1);
    expect(violationsOf(routing, `export { x } from "../webhooks/support.ts";`)).toHaveLength(1);
    expect(violationsOf(join(SUITES, SHARED, 'x.ts'), `import { a } from '../auth/bad-credentials.ts';`)).toHaveLength(1);
    expect(violationsOf(join(SUITES, 'x.ts'), ``)).toHaveLength(1);
    expect(violationsOf(join(SUITES, 'routing', 'x.test.ts'), ``)).toHaveLength(1);
    expect(violationsOf(routing, `import { a } from './routes.ts';\nimport { b } from '../_shared/routes.ts';\nimport { c } from '../../service/harness/worker/expect.ts';`)).toEqual([]);
  });

  // service/harness/main/suite-files.ts runs only the rule files that state a selected rule by hand
  // (`ruleTest('<ID>'`); a test made any other way must be of a rule no file states by hand, in the
  // one place that makes them from a table, which excludes the ids stated by hand (rulesStatedByHand).
  it('a rule test whose id is not written out is made only by suites/create/field-rules.ts', () => {
    const made = sources(SUITES).filter((f) => /ruleTest\(\s*[^\s'(]/.test(readFileSync(f, 'utf8').replace(/^\s*(\*|\/\/).*$/gm, '')));
    expect(made.map((f) => relative(ROOT, f).split(sep).join('/'))).toEqual(['suites/create/field-rules.ts']);
  });
});
