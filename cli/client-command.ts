/** `client`: certifies a merchant's API client by running its command against the chaos server (client-cert/). */
import { HarnessError } from '../harness/errors.ts';
import { runClient } from '../client-cert/run.ts';
import { intOption, type Options } from './main.ts';

export async function clientCommand(o: Options): Promise<number> {
  const command = o.run as string | undefined;
  if (!command?.trim()) throw new HarnessError('HPS_ERR_USAGE', 'client needs --run "COMMAND" (the merchant\'s test command; it gets HPS_BASE_URL and HPS_API_KEY)');
  const timeout = intOption(o, 'timeout', 1, 3600) ?? 120;
  const { exitCode } = await runClient({ command, seed: intOption(o, 'seed', 0, 2147483647), reportDir: o.report as string | undefined, timeoutMs: timeout * 1000 });
  return exitCode;
}
