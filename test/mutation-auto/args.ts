/**
 * The arguments of `npm run mutation:auto` (main.ts) and of the command Stryker runs per mutant
 * (mutant-run.ts). A bad argument is a usage error: one line naming it, exit status 2.
 */
import { parseArgs } from 'node:util';

export interface MainOptions {
  /** Chooses the sample, and is the seed of every suite run. */
  readonly seed: number;
  /** How many mutants the sample holds at most; Infinity with --all. */
  readonly mutants: number;
  /** Stryker's concurrency: suite runs side by side. */
  readonly concurrency: number;
  /** Where Stryker's reports and the summary go. */
  readonly report: string;
}

export const MAIN_USAGE =
  'usage: npm run mutation:auto -- [--seed N] [--mutants N | --all] [--concurrency N] [--report DIR]   (MUTATION_AUTO_ALL=1 is --all)';

export class UsageError extends Error {}

function whole(name: string, text: string | undefined, fallback: number, max: number): number {
  if (text === undefined) return fallback;
  const n = /^[0-9]+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > max) throw new UsageError(`--${name} takes a whole number from 1 to ${max} (got ${text})`);
  return n;
}

/** `npm run mutation:auto`'s options: defaults seed 1, 100 mutants, concurrency 2, reports/mutation-auto. */
export function mainOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): MainOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      seed: { type: 'string' },
      mutants: { type: 'string' },
      all: { type: 'boolean' },
      concurrency: { type: 'string' },
      report: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const all = values.all === true || env.MUTATION_AUTO_ALL === '1';
  if (all && values.mutants !== undefined) throw new UsageError('--all and --mutants exclude each other');
  return {
    seed: whole('seed', values.seed, 1, 2 ** 31 - 1),
    mutants: all ? Infinity : whole('mutants', values.mutants, 100, 100_000),
    concurrency: whole('concurrency', values.concurrency, 2, 16),
    report: values.report ?? 'reports/mutation-auto',
  };
}

/** The per-mutant command's options: the suite run's seed (default 1). */
export function mutantRunOptions(argv: readonly string[]): { seed: number } {
  const { values } = parseArgs({ args: [...argv], options: { seed: { type: 'string' } }, strict: true, allowPositionals: false });
  return { seed: whole('seed', values.seed, 1, 2 ** 31 - 1) };
}
