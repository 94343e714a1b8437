import { readdirSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as generators from './index.ts';
import { FIELD_RULE_FILES } from './internal/field-violation.ts';

const HERE = import.meta.dirname;
/** The contract and the request's shape, the routes (types, tables, no arbitrary), and a builder re-exported only through the two generators built on it. */
const NOT_A_GENERATOR = new Set(['index.ts', 'create-payment-request.ts', 'invalid-case.ts', 'invalid-enum-list.ts', 'routes.ts']);
const generatorFiles = readdirSync(HERE).filter((n) => n.endsWith('.ts') && !n.endsWith('.spec.ts') && !NOT_A_GENERATOR.has(n));

/** The index's functions that, called without arguments, make an arbitrary. */
function arbitraries(): [string, () => fc.Arbitrary<unknown>][] {
  return Object.entries(generators).flatMap(([name, v]) => {
    if (typeof v !== 'function' || !/^[a-z]/.test(name)) return [];
    try {
      return (v as () => unknown)() instanceof fc.Arbitrary ? [[name, v as () => fc.Arbitrary<unknown>]] : [];
    } catch {
      return []; // needs arguments (e.g. unknownRoutePath(id)): its own spec covers it
    }
  });
}

/**
 * A file that contributes single-field rules (exports FIELD_RULES) and nothing the index re-exports:
 * the registry (internal/field-violation.ts) is its only reader, field-rules.spec.ts its spec.
 */
async function registryOnly(file: string): Promise<boolean> {
  const mod: Record<string, unknown> = await import(`./${file}`);
  return 'FIELD_RULES' in mod && Object.entries(mod).every(([name, v]) => name === 'FIELD_RULES' || (generators as Record<string, unknown>)[name] !== v);
}

describe('service/generators/index', () => {
  it('has a spec file beside every generator (a FIELD_RULES-only file: field-rules.spec.ts)', async () => {
    const specs = new Set(readdirSync(HERE).filter((n) => n.endsWith('.spec.ts')));
    const without = generatorFiles.filter((n) => !specs.has(n.replace(/\.ts$/, '.spec.ts')));
    const lacking: string[] = [];
    for (const n of without) if (!(await registryOnly(n))) lacking.push(n);
    expect(lacking).toEqual([]);
  });

  it('re-exports every function and constant of every generator file, as is (a FIELD_RULES-only file: none)', async () => {
    const missing: string[] = [];
    for (const file of generatorFiles) {
      const mod: Record<string, unknown> = await import(`./${file}`);
      if (await registryOnly(file)) continue;
      for (const [name, v] of Object.entries(mod)) {
        if (name === 'FIELD_RULES') continue; // a file's single-field rules, gathered by internal/field-violation.ts, not public
        if ((generators as Record<string, unknown>)[name] !== v) missing.push(`${file}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('gathers every file\'s FIELD_RULES (a file exporting them the registry missed would go unread by the oracle)', async () => {
    const gathered = new Set<unknown>(FIELD_RULE_FILES);
    const missed: string[] = [];
    for (const file of generatorFiles) {
      const mod: Record<string, unknown> = await import(`./${file}`);
      if ('FIELD_RULES' in mod && !gathered.has(mod.FIELD_RULES)) missed.push(file);
    }
    expect(missed).toEqual([]);
    expect(FIELD_RULE_FILES.length).toBeGreaterThanOrEqual(8);
  });

  it('the check above can fail (a generator file the index forgot)', async () => {
    const mod: Record<string, unknown> = await import('./invalid-enum-list.ts');
    expect(Object.entries(mod).some(([name, v]) => (generators as Record<string, unknown>)[name] !== v)).toBe(true);
  });

  it('every negative case names a catalogue rule, at least one 400 code and a one-line why', () => {
    const all = arbitraries();
    expect(all.length).toBeGreaterThanOrEqual(24);
    for (const [name, make] of all) {
      for (const v of fc.sample(make(), { seed: 1, numRuns: 30 })) {
        if (v === null || typeof v !== 'object' || !('breaks' in v)) continue;
        const c = v as generators.InvalidCase;
        expect(generators.CREATE_RULE_IDS, name).toContain(c.breaks);
        expect(c.codes.length, name).toBeGreaterThan(0);
        expect(c.why, name).toMatch(/^[^\n\r]+$/);
      }
    }
  });
});
