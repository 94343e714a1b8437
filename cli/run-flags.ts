/**
 * The number flags of `run` and their bounds, checked the same way whether the run happens or
 * `--dry-run` only lists its rules: a value `run` refuses, `--dry-run` refuses too (exit 2).
 */
import { intOption, variantOption, type Options } from './options.ts';

export const RUN_INT_FLAGS = {
  seed: [-2147483648, 2147483647],
  runs: [1, 100000],
  'time-scale': [1, 1000000],
  'request-timeout': [100, 600000],
  'min-must-coverage': [0, 100],
  'max-failures': [1, 100000],
} as const satisfies Record<string, readonly [number, number]>;

/** Checks every number flag of `run` (and --variant); throws the usage error `run` would. */
export function checkRunFlags(o: Options): void {
  for (const [name, [min, max]] of Object.entries(RUN_INT_FLAGS)) intOption(o, name, min, max);
  variantOption(o);
}
