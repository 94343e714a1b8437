/** `sink`: the webhook sink alone, for long runs (the full 8 h 48 min retry schedule). */
import { resolve } from 'node:path';
import { HarnessError } from '../harness/errors.ts';
import { loadProfile } from '../harness/profile.ts';
import { startSink } from '../sink/index.ts';
import type { Options } from './main.ts';
import { waitForSignal } from './serve-command.ts';

export async function sinkCommand(o: Options): Promise<number> {
  if (!o.profile) throw new HarnessError('HPS_ERR_USAGE', 'sink: --profile FILE is required (its webhooks section names the endpoints and secrets)');
  const profile = loadProfile(o.profile as string);
  if (!profile.webhooks) throw new HarnessError('HPS_ERR_PROFILE', `${o.profile}: webhooks: is required to run the sink`);
  const logFile = resolve((o.log as string | undefined) ?? '.hps/sink-log.jsonl');
  let sink;
  try {
    sink = await startSink({
      listen: profile.webhooks.listen,
      publicUrl: profile.webhooks.public_url,
      endpoints: profile.webhooks.endpoints.map((e) => ({ ...e, enabled: e.enabled ?? true })),
      logFile,
    });
  } catch (e) {
    throw new HarnessError('HPS_ERR_SINK', `sink: could not listen on ${profile.webhooks.listen} (webhooks.listen): ${(e as Error).message}`);
  }
  const s = sink.stats();
  console.log(`sink listening on ${sink.url} · log ${logFile} · ${JSON.stringify(s)}`);
  console.log(`query: ${sink.url}/_sink/deliveries?payment_id=…`);
  await waitForSignal();
  await sink.close();
  return 0;
}
