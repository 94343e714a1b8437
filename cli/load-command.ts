/** `load`: the load scripts against the create/read hot path (load/run-load.ts). */
import { join } from 'node:path';
import { checkOutputDir } from '../harness/output-path.ts';
import { loadProfile } from '../harness/profile.ts';
import { guardLoadTarget } from '../harness/target-guard.ts';
import { parseLoadOptions } from '../load/options.ts';
import { runLoad } from '../load/run-load.ts';
import type { Options } from './main.ts';

export async function loadCommand(o: Options): Promise<number> {
  const options = parseLoadOptions(o);
  checkOutputDir(options.reportDir ?? join('reports', 'load'));
  if (options.profilePath) guardLoadTarget({ baseUrl: loadProfile(options.profilePath).base_url, rate: options.rate, durationS: options.durationS, connections: options.connections, yes: o.yes === true }, (l) => console.log(l));
  const result = await runLoad(options);
  return result.exitCode;
}
