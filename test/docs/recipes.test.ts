/**
 * docs/writing-suites.md gives the recipes for a new create rule and a new webhook rule as tables
 * of files between `<!-- recipe: NAME -->` markers. This test holds them to the tree: each path
 * exists (a `<placeholder>` in a name matches at least one file of that folder), and each recipe
 * stays within its bound (5 and 4, each counting the one generated file: the count found when each
 * was last followed for real).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const DOC = readFileSync(join(ROOT, 'docs', 'writing-suites.md'), 'utf8');
const BOUNDS: Record<string, number> = { create: 5, webhook: 4 };

/** The paths of one recipe's table (the first code span of each row). */
export function recipeFiles(doc: string, name: string): string[] {
  const m = new RegExp(`<!-- recipe: ${name} -->([\\s\\S]*?)<!-- /recipe -->`).exec(doc);
  if (m === null) return [];
  return m[1]!.split('\n').flatMap((line) => {
    const cell = /^\|\s*\d+\s*\|\s*`([^`]+)`/.exec(line);
    return cell ? [cell[1]!] : [];
  });
}

function exists(path: string): boolean {
  if (!path.includes('<')) return existsSync(join(ROOT, path));
  const dir = join(ROOT, dirname(path));
  const pattern = new RegExp(`^${path.slice(dirname(path).length + 1).replace(/[.]/g, '\\.').replace(/<[^>]+>/g, '[^/]+')}$`);
  return existsSync(dir) && readdirSync(dir).some((n) => pattern.test(n));
}

describe('docs/writing-suites.md recipes', () => {
  for (const [name, bound] of Object.entries(BOUNDS)) {
    it(`the ${name} recipe names files that exist, at most ${bound}`, () => {
      const files = recipeFiles(DOC, name);
      expect(files.length).toBeGreaterThan(0);
      expect(files.length).toBeLessThanOrEqual(bound);
      expect(new Set(files).size).toBe(files.length);
      expect(files.filter((f) => !exists(f))).toEqual([]);
    });
  }

  it('can fail: a missing file, a removed one, a recipe over its bound', () => {
    const doc = '<!-- recipe: x -->\n| 1 | `catalogue/rule-clauses.ts` | x |\n' +
      '| 2 | `service/generators/<input>.ts` | y |\n<!-- /recipe -->';
    const files = recipeFiles(doc, 'x');
    expect(files).toEqual(['catalogue/rule-clauses.ts', 'service/generators/<input>.ts']);
    expect(files.filter((f) => !exists(f))).toEqual(['catalogue/rule-clauses.ts']);
    expect(exists('service/generators/<nothing>.spec.tsx')).toBe(false);
    expect(recipeFiles(DOC, 'create').length).toBeGreaterThan(recipeFiles(DOC, 'create').length - 1);
  });
});
