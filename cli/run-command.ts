import { join } from 'node:path';
import { run } from '../harness/runner.ts';
import { checkOutputDir } from '../harness/output-path.ts';
import { intOption, listOption, type Options } from './main.ts';

export async function runCommand(o: Options): Promise<number> {
  // Before anything runs: a report directory that cannot be written would lose the results.
  checkOutputDir((o.report as string | undefined) ?? join('reports', 'runs'));
  const result = await run({
    profilePath: o.profile as string | undefined,
    areas: listOption(o, 'area'),
    rules: listOption(o, 'rule'),
    seed: intOption(o, 'seed', -2147483648, 2147483647),
    runs: intOption(o, 'runs', 1, 100000),
    reportDir: o.report as string | undefined,
    timeScale: intOption(o, 'time-scale', 1, 1000000),
    faults: listOption(o, 'fault'),
  });
  return result.exitCode;
}
