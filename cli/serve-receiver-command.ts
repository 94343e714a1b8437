/** `serve-receiver`: the reference receiver alone (a correct merchant webhook endpoint), with --fault NAME planted; the signing secret is read from --secret-env VAR (default HPS_RECEIVER_SECRET). */
import { HarnessError } from '../core/errors.ts';
import { startReferenceReceiver } from '../references/receiver/server.ts';
import { intOption, listOption, type Options } from './options.ts';
import { waitForSignal } from './serve-command.ts';

export async function serveReceiverCommand(o: Options): Promise<number> {
  const port = intOption(o, 'port', 0, 65535) ?? 4030;
  const variable = (o['secret-env'] as string | undefined) ?? 'HPS_RECEIVER_SECRET';
  const secret = process.env[variable];
  if (!secret?.startsWith('whsec_')) throw new HarnessError(
    'HPS_ERR_PROFILE_ENV',
    `${variable}: set it to the endpoint's signing secret (whsec_…), the one \`receiver --secret-env ${variable}\` will sign with`,
  );
  const faults = listOption(o, 'fault');
  let receiver;
  try {
    receiver = await startReferenceReceiver({ secret, port, faults, paymentsApi: paymentsApiOf(o) });
  } catch (e) {
    throw new HarnessError('HPS_ERR_USAGE', `serve-receiver: could not start on port ${port} (${(e as Error).message})`);
  }
  console.log(`reference receiver listening on ${receiver.url}${faults.length ? ` with fault(s) ${faults.join(', ')}` : ''}`);
  console.log(`inspection: ${receiver.inspectUrl}`);
  console.log(`signing secret: from ${variable}`);
  await waitForSignal();
  await receiver.close();
  return 0;
}

/** Fetch mode: --payments-api URL (e.g. the receiver command's --payments-api-port stand-in), key from HPS_API_KEY. */
function paymentsApiOf(o: Options): { baseUrl: string; apiKey: string } | undefined {
  const baseUrl = o['payments-api'] as string | undefined;
  if (baseUrl === undefined) return undefined;
  if (!/^https?:\/\/\S+$/.test(baseUrl)) throw new HarnessError('HPS_ERR_USAGE', `--payments-api ${baseUrl}: must be an http(s) URL`);
  const apiKey = process.env.HPS_API_KEY;
  if (!apiKey) throw new HarnessError(
    'HPS_ERR_PROFILE_ENV',
    '--payments-api: environment variable HPS_API_KEY (the Test key to read Payments with) is not set',
  );
  return { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey };
}
