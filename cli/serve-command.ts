/** `serve`: the reference server alone, printing where it listens and writing its profile. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { startReferenceServer } from '../targets/reference-server.ts';
import { intOption, listOption, variantOption, type Options } from './main.ts';

export async function serveCommand(o: Options): Promise<number> {
  const port = intOption(o, 'port', 0, 65535) ?? 4010;
  const host = (o.host as string | undefined) ?? '127.0.0.1';
  const profileOut = resolve((o['profile-out'] as string | undefined) ?? '.hps/reference-profile.json');
  const faults = listOption(o, 'fault');
  const variant = variantOption(o);
  const reference = await startReferenceServer(
    {
      host,
      port,
      faults,
      variant,
      timeScale: intOption(o, 'time-scale', 1, 1000000) ?? 1,
      webhookBaseUrl: (o['webhook-url'] as string | undefined) ?? 'http://127.0.0.1:4020',
    },
    (reason) => `serve: could not start on ${host}:${port} (${reason})`,
  );
  mkdirSync(dirname(profileOut), { recursive: true });
  writeFileSync(profileOut, JSON.stringify(reference.profile, null, 2) + '\n', { mode: 0o600 });
  console.log(`reference server listening on ${reference.url}${variant === 'alt' ? ' (variant alt)' : ''}${faults.length ? ` with fault(s) ${faults.join(', ')}` : ''}`);
  console.log(`profile written to ${profileOut} (keys inside; keep it private)`);
  await waitForSignal();
  await reference.close();
  return 0;
}

export function waitForSignal(): Promise<void> {
  return new Promise((res) => {
    const done = () => res();
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}
