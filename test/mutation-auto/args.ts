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

type Flags = NonNullable<Parameters<typeof parseArgs>[0]>['options'];

/** node's parseArgs, strict, no positionals; its complaints (an unknown flag, a missing value) become UsageErrors. */
function parse<T extends Flags>(argv: readonly string[], options: T) {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    if (error instanceof TypeError && String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS')) {
      throw new UsageError(error.message.split('\n')[0]);
    }
    throw error;
  }
}

function whole(name: string, text: string | undefined, fallback: number, max: number): number {
  if (text === undefined) return fallback;
  const n = /^[0-9]+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > max) throw new UsageError(`--${name} takes a whole number from 1 to ${max} (got ${text})`);
  return n;
}

/** `npm run mutation:auto`'s options: defaults seed 1, 100 mutants, concurrency 2, reports/mutation-auto. */
export function mainOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): MainOptions {
  const values = parse(argv, {
    seed: { type: 'string' },
    mutants: { type: 'string' },
    all: { type: 'boolean' },
    concurrency: { type: 'string' },
    report: { type: 'string' },
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

/** The per-mutant command's options: the suite run's seed (default 1); --log FILE: append one JSON line per mutant to it. */
export function mutantRunOptions(argv: readonly string[]): { seed: number; log: string | undefined } {
  const values = parse(argv, { seed: { type: 'string' }, log: { type: 'string' } });
  return { seed: whole('seed', values.seed, 1, 2 ** 31 - 1), log: values.log };
}
