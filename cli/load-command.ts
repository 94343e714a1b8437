/**
 * `load`: the load scripts against the create/read hot path (load/run-load.ts), and
 * `load merge DIR...`: shards' results merged and judged as one (load/merge.ts).
 */
import { HarnessError } from '../core/errors.ts';
import { mergeCommand } from '../load/merge.ts';
import { join } from 'node:path';
import { checkOutputDir } from '../core/output-path.ts';
import { loadProfile } from '../core/profile.ts';
import { guardLoadTarget } from '../core/target-guard.ts';
import { parseLoadOptions } from '../load/options.ts';
import { runLoad } from '../load/run-load.ts';
import type { Options } from './main.ts';

export async function loadCommand(o: Options, positionals: string[] = []): Promise<number> {
  if (positionals[0] === 'merge') return mergeCommand(o, positionals.slice(1));
  if (positionals.length) throw new HarnessError('HPS_ERR_USAGE', `load: unexpected argument ${JSON.stringify(positionals[0])} (only \`load merge DIR...\` takes arguments)`);
  const options = parseLoadOptions(o);
  checkOutputDir(options.reportDir ?? join('reports', 'load'));
  if (options.profilePath) guardLoadTarget({ baseUrl: loadProfile(options.profilePath).base_url, rate: options.rate, durationS: options.durationS, connections: options.connections, yes: o.yes === true }, (l) => console.log(l));
  const result = await runLoad(options);
  return result.exitCode;
}
