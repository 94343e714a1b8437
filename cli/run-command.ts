import { HarnessError } from '../harness/errors.ts';
import { run } from '../harness/runner.ts';
import { intOption, listOption, variantOption, type Options } from './main.ts';

export async function runCommand(o: Options): Promise<number> {
  if (o.profile !== undefined && o.variant !== undefined) {
    throw new HarnessError('HPS_ERR_USAGE', '--variant applies to the embedded reference server only (drop --profile)');
  }
  const result = await run({
    profilePath: o.profile as string | undefined,
    areas: listOption(o, 'area'),
    rules: listOption(o, 'rule'),
    seed: intOption(o, 'seed', -2147483648, 2147483647),
    runs: intOption(o, 'runs', 1, 100000),
    reportDir: o.report as string | undefined,
    timeScale: intOption(o, 'time-scale', 1, 1000000),
    faults: listOption(o, 'fault'),
    variant: variantOption(o),
  });
  return result.exitCode;
}
