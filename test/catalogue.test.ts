/**
 * Self-check of the catalogue (test262's lint, in spirit): every catalogued
 * rule has a test in suites/ or a recorded reason why the API cannot exercise
 * it; every test cites a known id; ids are unique and well formed; every
 * error code of the spec's table is exercised by some rule.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AREAS, ERROR_CODES, RULES } from '../catalogue/index.ts';
import { derivedFieldRules } from '../suites/create/field-rules.ts';

const ROOT = join(import.meta.dirname, '..');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.rules.ts') ? [p] : [];
  });
}

const suiteFiles = walk(join(ROOT, 'suites'));
const citations = [
  ...suiteFiles.flatMap((f) =>
    [...readFileSync(f, 'utf8').matchAll(/ruleTest\(\s*'([^']+)'/g)].map((m) => ({ id: m[1]!, file: relative(ROOT, f) })),
  ),
  // single-field create rules without a test of their own get a derived one (suites/create/field-rules.ts)
  ...derivedFieldRules().map((id) => ({ id, file: 'suites/create/field-rules.ts' })),
];

describe('rule catalogue', () => {
  it('has unique, well-formed ids', () => {
    const ids = RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[A-Z]+(-[A-Z0-9]+)+$/);
  });

  it('gives every rule an area, a level, a section and a one-sentence requirement', () => {
    for (const r of RULES) {
      expect(AREAS).toContain(r.area);
      expect(['MUST', 'SHOULD', 'OBSERVE']).toContain(r.level);
      expect(r.section.length).toBeGreaterThan(3);
      expect(r.requirement).toMatch(/\.$/);
    }
  });

  it('has a test for every rule, or a recorded reason why the API cannot exercise it', () => {
    const tested = new Set(citations.map((c) => c.id));
    // Merchant-side rules (`side`) are exercised by the receiver and client commands (test/merchant/).
    const missing = RULES.filter((r) => !('untestable' in r) && !('side' in r) && !tested.has(r.id)).map((r) => r.id);
    expect(missing, `rules without a test: ${missing.join(', ')}`).toEqual([]);
  });

  it('cites only catalogued ids, each from its own area folder', () => {
    const byId = new Map<string, (typeof RULES)[number]>(RULES.map((r) => [r.id, r]));
    for (const c of citations) {
      const rule = byId.get(c.id);
      expect(rule, `${c.file} cites unknown rule ${c.id}`).toBeDefined();
      expect(c.file.startsWith(`suites/${rule!.area}/`), `${c.file} cites ${c.id} of area ${rule!.area}`).toBe(true);
    }
  });

  it('does not test what it declares untestable', () => {
    const tested = new Set(citations.map((c) => c.id));
    for (const r of RULES) if ('untestable' in r) expect(tested.has(r.id), `${r.id} is declared untestable but has a test`).toBe(false);
  });

  it('exercises every error code of the spec\'s table', () => {
    const named = new Set(RULES.flatMap((r) => ('codes' in r ? [...r.codes] : [])));
    const missing = ERROR_CODES.filter((c) => !named.has(c));
    expect(missing).toEqual([]);
  });
});
