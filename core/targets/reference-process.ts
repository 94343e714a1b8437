/**
 * The target of a load run: the profile's, or — without --profile — the embedded reference
 * server on a loopback port in a child process of its own (reference-child-main.ts), ended
 * after the run.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { HarnessError } from '../errors.ts';
import { loadProfile, profileSecrets, type Profile } from '../profile.ts';

export interface LoadTarget {
  profile: Profile;
  embedded: boolean;
  secrets: string[];
  close(): Promise<void>;
}

export async function openLoadTarget(profilePath: string | undefined): Promise<LoadTarget> {
  if (profilePath) {
    const profile = loadProfile(profilePath);
    return { profile, embedded: false, secrets: profileSecrets(profile), close: async () => undefined };
  }
  const started = await startReferenceProcess();
  // Our own server on loopback: reached directly, never through the environment's proxy.
  const profile = { ...started.profile, network: { direct: true } };
  const close = started.close;
  return { profile, embedded: true, secrets: profileSecrets(profile), close };
}

const CHILD = fileURLToPath(new URL('./reference-child.mjs', import.meta.url));
const CHILD_START_MS = 20_000;

/**
 * The embedded reference server in a child process; closing stdin ends it (killed if it
 * lingers). `launcher` prefixes the command (the bench pins it with taskset).
 */
export async function startReferenceProcess(launcher: string[] = []): Promise<{ profile: Profile; pid: number; close(): Promise<void> }> {
  const [cmd, ...pre] = [...launcher, process.execPath];
  const child = spawn(cmd!, [...pre, CHILD], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async (): Promise<void> => {
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
  };
  const line = await new Promise<string>((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error('did not start in time')), CHILD_START_MS);
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString('utf8');
      if (buf.includes('\n')) {
        clearTimeout(timer);
        resolve(buf.slice(0, buf.indexOf('\n')));
      }
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}`)));
  }).catch(async (e: Error) => {
    await close();
    throw new HarnessError('HPS_ERR_USAGE', `embedded reference server: ${e.message}`);
  });
  const msg = JSON.parse(line) as { profile?: Profile; error?: string };
  if (!msg.profile) {
    await close();
    throw new HarnessError('HPS_ERR_USAGE', `embedded reference server: ${msg.error ?? 'no profile'}`);
  }
  return { profile: msg.profile, pid: child.pid ?? 0, close };
}

/** base_url without any user:password part, for output. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}
