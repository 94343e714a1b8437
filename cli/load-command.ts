/** `load`: the load scripts against the create/read hot path (load/run-load.ts). */
import { parseLoadOptions } from '../load/options.ts';
import { runLoad } from '../load/run-load.ts';
import type { Options } from './main.ts';

export async function loadCommand(o: Options): Promise<number> {
  const options = parseLoadOptions(o);
  const result = await runLoad(options);
  return result.exitCode;
}
