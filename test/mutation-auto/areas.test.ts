/** The file → areas table of `npm run mutation:auto`, and how the per-mutant command finds a mutant's file. */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Instrumenter } from '@stryker-mutator/instrumenter';
import { afterAll, describe, expect, it } from 'vitest';
import { AREAS } from '../../catalogue/types.ts';
import { areasOf, fileOfMutant, instrumentedFiles, MUTATED_FILES } from './areas.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const quiet = { isDebugEnabled: () => false, debug() {}, info() {}, warn() {} };

describe('MUTATED_FILES', () => {
  it('maps every mutated file, each existing, to areas of the suite that have their folder under suites/', () => {
    expect(Object.keys(MUTATED_FILES).length).toBeGreaterThan(0);
    for (const [file, areas] of Object.entries(MUTATED_FILES)) {
      expect(existsSync(join(ROOT, file)), file).toBe(true);
      expect(areas.length, file).toBeGreaterThan(0);
      for (const area of areas) {
        expect(AREAS, `${file}: ${area}`).toContain(area);
        expect(existsSync(join(ROOT, 'suites', area)), `${file}: suites/${area}`).toBe(true);
      }
    }
  });

  it('gives the areas of several files once each, in the suite order; an unmapped file is an error naming it', () => {
    expect(areasOf(['references/service/payments.ts', 'references/service/listing.ts'])).toEqual(['isolation', 'transitions', 'listing']);
    expect(() => areasOf(['references/service/seed.ts'])).toThrow(/references\/service\/seed\.ts is not in MUTATED_FILES/);
  });
});

describe('the per-mutant command finds the active mutant in the instrumented copy', () => {
  const sandbox = mkdtempSync(join(tmpdir(), 'hps-mutation-auto-'));
  afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

  it('every mutant Stryker places in a mapped file is found in that file; an unknown id in none', async () => {
    const files = ['references/service/webhooks/sign.ts', 'references/service/rate-limit.ts'];
    const input = files.map((name) => ({ name, content: readFileSync(join(ROOT, name), 'utf8'), mutate: true as const }));
    const options = { plugins: null, excludedMutations: [], ignorers: [] };
    const { files: out, mutants } = await new Instrumenter(quiet as never).instrument(input, options);
    for (const f of out) {
      mkdirSync(dirname(join(sandbox, f.name)), { recursive: true });
      writeFileSync(join(sandbox, f.name), f.content);
    }
    writeFileSync(join(sandbox, 'references/service/listing.ts'), readFileSync(join(ROOT, 'references/service/listing.ts')));
    expect(instrumentedFiles(sandbox).sort()).toEqual([...files].sort());
    expect(mutants.length).toBeGreaterThan(10);
    for (const m of mutants) expect(fileOfMutant(sandbox, m.id), m.id).toBe(m.fileName);
    expect(fileOfMutant(sandbox, String(mutants.length + 1000))).toBeUndefined();
  }, 120_000);
});
