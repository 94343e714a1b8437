/** `npm run mutation:auto`'s arguments and the per-mutant command's, and the seeded sample they choose. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mainOptions, mutantRunOptions, UsageError } from './args.ts';
import { listMutants, sampleSites } from './sample.ts';

describe('mainOptions', () => {
  it('defaults: seed 1, 100 mutants, concurrency 2, reports/mutation-auto', () => {
    expect(mainOptions([], {})).toEqual({ seed: 1, mutants: 100, concurrency: 2, report: 'reports/mutation-auto' });
  });

  it('reads each flag; --all or MUTATION_AUTO_ALL=1 takes every mutant', () => {
    const argv = ['--seed', '7', '--mutants', '60', '--concurrency', '1', '--report', 'out/m'];
    expect(mainOptions(argv, {})).toEqual({ seed: 7, mutants: 60, concurrency: 1, report: 'out/m' });
    expect(mainOptions(['--all'], {}).mutants).toBe(Infinity);
    expect(mainOptions([], { MUTATION_AUTO_ALL: '1' }).mutants).toBe(Infinity);
    expect(mainOptions([], { MUTATION_AUTO_ALL: '0' }).mutants).toBe(100);
  });

  it('refuses what is not a whole number in range, --all with --mutants, and unknown flags', () => {
    for (const argv of [['--seed', '0'], ['--mutants', '1.5'], ['--mutants', '-3'], ['--concurrency', '17'], ['--seed', '1e3']]) {
      expect(() => mainOptions(argv, {}), argv.join(' ')).toThrow(UsageError);
    }
    expect(() => mainOptions(['--all', '--mutants', '5'], {})).toThrow(/exclude each other/);
    expect(() => mainOptions(['--budget', '5'], {})).toThrow(/Unknown option '--budget'/);
    expect(() => mainOptions(['extra'], {})).toThrow(/Unexpected argument 'extra'/);
  });
});

describe('mutantRunOptions', () => {
  it('takes the seed of the suite runs and the log file', () => {
    expect(mutantRunOptions([])).toEqual({ seed: 1, log: undefined });
    expect(mutantRunOptions(['--seed', '42', '--log', '/tmp/x.ndjson'])).toEqual({ seed: 42, log: '/tmp/x.ndjson' });
    expect(() => mutantRunOptions(['--area', 'create'])).toThrow(UsageError);
  });
});

describe('sampleSites', () => {
  const ROOT = resolve(import.meta.dirname, '..', '..');
  const files = ['references/service/rate-limit.ts', 'references/service/live-readiness.ts'];

  it('is the same for a seed, other for another, within the budget, never in a planted table', async () => {
    const listed = await listMutants(ROOT, files);
    expect(listed.some((m) => m.planted)).toBe(true);
    const a = sampleSites(listed, { seed: 1, budget: 20 });
    expect(sampleSites(listed, { seed: 1, budget: 20 })).toEqual(a);
    expect(sampleSites(listed, { seed: 2, budget: 20 }).mutate).not.toEqual(a.mutate);
    expect(a.mutants).toBeLessThanOrEqual(20);
    expect(a.mutants).toBeGreaterThan(15);
    expect(a.eligible).toBe(listed.filter((m) => !m.planted).length);
    for (const range of a.mutate) expect(range).toMatch(/^references\/service\/(rate-limit|live-readiness)\.ts:\d+:\d+-\d+:\d+$/);
    const every = sampleSites(listed, { seed: 1, budget: Infinity, siteCap: Infinity });
    expect(every.mutants).toBe(every.eligible);
  }, 120_000);

  it('leaves out a helper only the planted faults call (rate-limit.ts blockSlotOf), not the live path beside it', async () => {
    const listed = await listMutants(ROOT, ['references/service/rate-limit.ts']);
    const lines = readFileSync(resolve(ROOT, 'references/service/rate-limit.ts'), 'utf8').split('\n');
    const lineOf = (needle: string) => lines.findIndex((l) => l.includes(needle));
    const at = (line: number) => listed.filter((m) => m.location.start.line === line);
    const helper = at(lineOf('return `business\\u0000${businessId}`'));
    const live = at(lineOf('return Math.max(1, Math.ceil(remainingMs / 1000));'));
    expect(helper.length).toBeGreaterThan(0);
    expect(helper.every((m) => m.planted)).toBe(true);
    expect(live.length).toBeGreaterThan(0);
    expect(live.some((m) => m.planted)).toBe(false);
  }, 120_000);
});
