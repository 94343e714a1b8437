/** `client`: certifies a merchant's API client by running its command against the chaos server (merchant/client/); --mutation: the example client's planted faults. */
import { HarnessError } from '../core/errors.ts';
import { clientMutation } from '../merchant/client/mutation.ts';
import { runClient } from '../merchant/client/run.ts';
import { intOption, type Options } from './options.ts';
import { sidePolicyOf } from './receiver-command.ts';
import { checkOutputDir } from '../core/output-path.ts';
import { join } from 'node:path';

export async function clientCommand(o: Options): Promise<number> {
  // Before the command runs: a report directory that cannot be written would lose the verdict (as run).
  checkOutputDir((o.report as string | undefined) ?? join('reports', 'runs'));
  if (o.mutation) return mutation(intOption(o, 'seed', 0, 2147483647) ?? 1);
  const command = o.run as string | undefined;
  if (!command?.trim()) throw new HarnessError(
    'HPS_ERR_USAGE',
    'client needs --run "COMMAND" (the merchant\'s test command; it gets HPS_BASE_URL and HPS_API_KEY)',
  );
  const timeout = intOption(o, 'timeout', 1, 3600) ?? 120;
  const { exitCode } = await runClient({
    command,
    seed: intOption(o, 'seed', 0, 2147483647),
    reportDir: o.report as string | undefined,
    timeoutMs: timeout * 1000,
    policy: sidePolicyOf(o),
  });
  return exitCode;
}

/** The example client with each planted fault, and clean. */
async function mutation(seed: number): Promise<number> {
  const m = await clientMutation(
    seed,
    (r) => console.error(`${r.caught ? 'caught' : 'MISSED'} ${r.fault}${r.caught ? ` by ${r.caughtBy.join(', ')}` : ` ` +
      `(broke: ${r.broke.join(', ') || 'nothing'})`}`),
  );
  console.log(`client faults caught: ${m.caught} of ${m.results.length} · clean example client: ${m.cleanFindings.length ? `FALSE ` +
    `ALARMS ${m.cleanFindings.join(', ')}` : '0 findings'}`);
  return m.caught === m.results.length && m.cleanFindings.length === 0 ? 0 : 1;
}
