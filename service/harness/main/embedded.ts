/**
 * The target of a run: the profile's, or the embedded reference server (with
 * its own profile) when no profile is given; plus the webhook sink when the
 * selection has webhook rules and the profile declares webhooks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { startReferenceServer, type RunningReference } from '../../../core/targets/reference-server.ts';
import type { RunningSink } from '../../sink/index.ts';
import { HarnessError } from '../../../core/errors.ts';
import type { Profile } from '../../../core/profile.ts';

export interface RunningTarget {
  profile: Profile;
  embedded: boolean;
  sinkUrl: string | null;
  /** Bearer token of the sink's query API (generated per run unless the profile sets webhooks.query_token). */
  sinkToken: string | null;
  /** The sink's log (in a private directory of the run), when there is a sink. */
  sinkLogFile: string | null;
  close(): Promise<void>;
  /** Removes the run's temporary directory at once (an interrupted run that cannot wait for close). */
  removeTempSync(): void;
}

/** Tries at a free port for the embedded sink before giving up. */
const PORT_ATTEMPTS = 5;

/** The embedded reference's retry clock: the whole 8 h 48 min schedule in about 8 s (bench:conformance; every gap still judged, docs/architecture.md). */
export const EMBEDDED_TIME_SCALE = 4000;

export async function startTarget(o: {
  profile?: Profile;
  timeScale?: number;
  faults?: string[];
  /** The embedded reference's decisions on points the spec leaves open. */
  variant?: 'reference' | 'alt';
  needSink: boolean;
  logDir?: string;
  /** The embedded reference's internal errors (a planted fault's crash); default: one line on stderr. */
  onReferenceError?: (err: unknown) => void;
}): Promise<RunningTarget> {
  // A private directory per run (mkdtemp: 0700); the log inside is created 0600.
  const logDir = o.logDir ?? mkdtempSync(join(tmpdir(), 'hps-conformance-'));
  // The run's own directory goes with the run: its log is the sink's working memory, not a result.
  const removeOwnDir = () => {
    if (o.logDir === undefined) rmSync(logDir, { recursive: true, force: true });
  };
  if (o.profile) {
    const sink = o.needSink && o.profile.webhooks ? await openSink(o.profile, logDir, o.profile.webhooks.listen) : null;
    return {
      profile: o.profile, embedded: false, sinkUrl: sink?.url ?? null, sinkToken: sink?.queryToken ?? null, sinkLogFile: sink?.logFile ?? null,
      removeTempSync: removeOwnDir,
      close: async () => {
        await sink?.close();
        removeOwnDir();
      },
    };
  }
  // Embedded: pick the sink's port first (it is where the reference delivers), then start both.
  // Another process may take that port between the pick and the listen: then both start again.
  let started: { reference: RunningReference; live: RunningSink } | undefined;
  for (let attempt = 1; !started; attempt++) {
    const sinkPort = await freePort();
    let reference;
    try {
      reference = await startReferenceServer({ webhookBaseUrl: `http://127.0.0.1:${sinkPort}`, timeScale: o.timeScale ?? EMBEDDED_TIME_SCALE, faults: o.faults, variant: o.variant, onError: o.onReferenceError });
    } catch (e) {
      removeOwnDir();
      throw e;
    }
    try {
      started = { reference, live: await openSink(reference.profile as Profile, logDir, `127.0.0.1:${sinkPort}`) };
    } catch (e) {
      await reference.close();
      if (attempt < PORT_ATTEMPTS && /EADDRINUSE/.test((e as Error).message)) continue;
      removeOwnDir();
      throw e;
    }
  }
  const { reference, live } = started;
  // Our own server on loopback: reached directly, never through the environment's proxy.
  const profile = { ...(reference.profile as Profile), network: { direct: true } };
  return {
    profile,
    embedded: true,
    sinkUrl: live.url,
    sinkToken: live.queryToken,
    sinkLogFile: live.logFile,
    removeTempSync: removeOwnDir,
    close: async () => {
      await reference.close();
      await live?.close();
      removeOwnDir();
    },
  };
}

async function openSink(profile: Profile, logDir: string, listen: string): Promise<RunningSink> {
  const w = profile.webhooks!;
  // Loaded only when the run has webhook rules (~20 modules a run without them does not need).
  const { startSink } = await import('../../sink/index.ts');
  try {
    return await startSink({
      listen,
      publicUrl: w.public_url,
      endpoints: w.endpoints.map((e) => ({ ...e, enabled: e.enabled ?? true })),
      logFile: join(logDir, `sink-${process.pid}-${Date.now()}.jsonl`),
      queryToken: w.query_token,
      // The log is this run's working memory, removed when the run ends, never reloaded: a crash
      // loses the run with it, so an fdatasync per delivery buys nothing here (it cost seconds of
      // this process's event loop, which the reference and the sink share, on a busy disk).
      fsync: false,
    });
  } catch (e) {
    throw sinkStartError(e, listen);
  }
}

/**
 * A loopback port free right now (the reference must know the sink's address before either starts).
 * Drawn below the kernel's ephemeral range (32768 and up on Linux), so no outgoing connection of a
 * busy machine takes it as its local port in the seconds before the sink listens (seen: the sink's
 * port taken, EADDRINUSE, with many runs side by side); a port the OS picks is the fallback.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await canListen(port)) return port;
  }
  return listenOnce(0);
}

function canListen(port: number): Promise<boolean> {
  return listenOnce(port).then(() => true, () => false);
}

function listenOnce(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(port, '127.0.0.1', () => {
      const bound = (s.address() as { port: number }).port;
      s.close(() => resolve(bound));
    });
  });
}

/** A sink that could not start: the log named when the log is the trouble, webhooks.listen otherwise. */
export function sinkStartError(e: unknown, listen: string): HarnessError {
  const err = e as Error & { code?: string };
  if (err.code === 'SINK_LOG') return new HarnessError('HPS_ERR_SINK', `webhook sink: ${err.message}`);
  if (err.code === 'SINK_BAD_OPTIONS') return new HarnessError('HPS_ERR_SINK', `webhook sink: ${err.message}`);
  return new HarnessError('HPS_ERR_SINK', `webhook sink could not listen on ${listen} (webhooks.listen): ${err.message}`);
}
