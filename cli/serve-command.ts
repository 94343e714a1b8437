/** `serve`: the reference server alone, printing where it listens and writing its profile. */
import { checkOutputFile } from '../core/output-path.ts';
import { writeFileAtomic } from '../core/safe-write.ts';
import { EMBEDDED_TIME_SCALE } from '../service/harness/main/embedded.ts';
import { startReferenceServer } from '../core/targets/reference-server.ts';
import { intOption, listOption, variantOption, type Options } from './options.ts';

export async function serveCommand(o: Options): Promise<number> {
  if (o['list-faults']) {
    process.stdout.write((await import('./fault-list.ts')).faultListText());
    return 0;
  }
  const port = intOption(o, 'port', 0, 65535) ?? 4010;
  const host = (o.host as string | undefined) ?? '127.0.0.1';
  // Before the server starts: a profile that could not be written would leave a server nobody can use.
  const profileOut = checkOutputFile((o['profile-out'] as string | undefined) ?? '.hps/reference-profile.json', '--profile-out');
  const faults = listOption(o, 'fault');
  const variant = variantOption(o);
  const reference = await startReferenceServer(
    {
      host,
      port,
      faults,
      variant,
      // the embedded run's scale: `run --profile <this profile>` gives the same verdict as `run`
      timeScale: intOption(o, 'time-scale', 1, 1000000) ?? EMBEDDED_TIME_SCALE,
      webhookBaseUrl: (o['webhook-url'] as string | undefined) ?? 'http://127.0.0.1:4020',
    },
    (reason) => `serve: could not start on ${host}:${port} (${reason})`,
  );
  writeFileAtomic(profileOut, JSON.stringify(reference.profile, null, 2) + '\n', 0o600);
  console.log(`reference server listening on ${reference.url}${variant === 'alt' ? ' (variant alt)' : ''}${faults.length ? ` with ` +
    `fault(s) ${faults.join(', ')}` : ''}`);
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
