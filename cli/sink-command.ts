/** `sink`: the webhook sink alone, for long runs (the full 8 h 48 min retry schedule). */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { HarnessError } from '../core/errors.ts';
import { loadProfile } from '../core/profile.ts';
import { checkOutputFile } from '../core/output-path.ts';
import { sinkStartError } from '../service/harness/main/embedded.ts';
import { isLoopbackHost } from '../service/sink/http-helpers.ts';
import { startSink } from '../service/sink/index.ts';
import type { Options } from './options.ts';
import { waitForSignal } from './serve-command.ts';

export async function sinkCommand(o: Options): Promise<number> {
  if (!o.profile) throw new HarnessError(
    'HPS_ERR_USAGE',
    'sink: --profile FILE is required (its webhooks section names the endpoints and secrets)',
  );
  const profile = loadProfile(o.profile as string);
  if (!profile.webhooks) throw new HarnessError('HPS_ERR_PROFILE', `${o.profile}: webhooks: is required to run the sink`);
  const listen = profile.webhooks.listen;
  const given = (o['query-token'] as string | undefined) ?? profile.webhooks.query_token;
  const host = listen.replace(/:\d+$/, '');
  if (given === undefined && !isLoopbackHost(host)) {
    throw new HarnessError(
      'HPS_ERR_USAGE',
      `sink: refusing to listen on ${listen} (not loopback) without a query token: give --query-token or webhooks.query_token`,
    );
  }
  if (given !== undefined && given.length < 16) throw new HarnessError(
    'HPS_ERR_USAGE',
    'sink: the query token must be at least 16 characters',
  );
  const logFile = checkOutputFile((o.log as string | undefined) ?? '.hps/sink-log.jsonl', '--log');
  const queryToken = given ?? randomBytes(24).toString('base64url');
  let sink;
  try {
    sink = await startSink({
      listen,
      publicUrl: profile.webhooks.public_url,
      endpoints: profile.webhooks.endpoints.map((e) => ({ ...e, enabled: e.enabled ?? true })),
      logFile,
      queryToken,
    });
  } catch (e) {
    throw sinkStartError(e, listen);
  }
  // A generated token is never printed: it goes to a 0600 file next to the log.
  const tokenNote = given === undefined ? `query token in ${writeTokenFile(logFile, queryToken)}` : 'query token as given';
  console.log(`sink listening on ${sink.boundAddress} · log ${logFile} · ${JSON.stringify(sink.stats())}`);
  console.log(`query: ${sink.url}/_sink/deliveries?payment_id=… with Authorization: Bearer <token> (${tokenNote})`);
  await waitForSignal();
  await sink.close();
  return 0;
}

function writeTokenFile(logFile: string, token: string): string {
  const file = `${logFile}.query-token`;
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return file;
}
