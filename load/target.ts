/**
 * The target of a load run: the profile's, or — without --profile — the embedded reference
 * server on a loopback port, closed after the run. The embedded server delivers its webhooks
 * (payment.created, payment.cancelled) to a null receiver in this process that acknowledges
 * everything with 204: the server does the work a real service does, no retry piles up, and
 * nothing is logged to disk (the webhook sink is not needed for load).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startReference } from '../reference/index.ts';
import { Client, TransportError } from '../harness/client.ts';
import { HarnessError } from '../harness/errors.ts';
import { loadProfile, profileSecrets, type Profile } from '../harness/profile.ts';

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
  const receiver = await startNullReceiver();
  let reference;
  try {
    reference = await startReference({ port: 0, webhookBaseUrl: receiver.url, timeScale: 1 });
  } catch (e) {
    await receiver.close();
    throw new HarnessError('HPS_ERR_USAGE', `embedded reference server: ${(e as Error).message}`);
  }
  const profile = reference.profile as Profile;
  return {
    profile,
    embedded: true,
    secrets: profileSecrets(profile),
    close: async () => {
      await reference.close();
      await receiver.close();
    },
  };
}

async function startNullReceiver(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * One request before the load (as `run` does): an unreachable target, or one answering
 * something that is not JSON, stops the command with exit 3. It goes through undici, which
 * verifies TLS certificates (autocannon does not).
 */
export async function preflight(profile: Profile, secrets: readonly string[]): Promise<void> {
  const client = new Client({ baseUrl: profile.base_url, secrets, timeoutMs: 10_000 });
  let res;
  try {
    res = await client.listPayments(profile.keys.test, { limit: 1 });
  } catch (e) {
    if (e instanceof TransportError) throw new HarnessError(e.code, `target ${safeUrl(profile.base_url)} could not be reached: ${e.message}`);
    throw e;
  }
  if (res.json === undefined || typeof res.json !== 'object' || res.json === null) {
    throw new HarnessError(
      'HPS_ERR_TARGET_GARBAGE',
      `target ${safeUrl(profile.base_url)} answered GET /v1/payments with ${res.status} and a body that is not JSON (${JSON.stringify(res.text.slice(0, 60))})`,
    );
  }
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
