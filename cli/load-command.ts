/**
 * `load`: the load scripts against the create/read hot path (load/run-load.ts), and
 * `load merge DIR...`: shards' results merged and judged as one (load/merge.ts).
 */
import { HarnessError } from '../harness/errors.ts';
import { mergeCommand } from '../load/merge.ts';
import { parseLoadOptions } from '../load/options.ts';
import { runLoad } from '../load/run-load.ts';
import type { Options } from './main.ts';

export async function loadCommand(o: Options, positionals: string[] = []): Promise<number> {
  if (positionals[0] === 'merge') return mergeCommand(o, positionals.slice(1));
  if (positionals.length) throw new HarnessError('HPS_ERR_USAGE', `load: unexpected argument ${JSON.stringify(positionals[0])} (only \`load merge DIR...\` takes arguments)`);
  const options = parseLoadOptions(o);
  const result = await runLoad(options);
  return result.exitCode;
}
