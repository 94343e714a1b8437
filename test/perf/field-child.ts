/**
 * A fresh reference and a field proxy in front of it (field-proxy.ts), in a process of their own
 * (field-run.ts starts it): the service a field run meets shares no event loop, heap or libuv pool
 * with the vitest worker that drives the run. Run as `node --import tsx field-child.ts SINK_PORT`.
 *
 * One JSON line each way, in order:
 * - out `{ reference }`: the reference's own profile (its keys, which the proxy's options may name);
 * - in `{ options }`: the proxy's options; out `{ url, profile }`: the proxy's URL and the profile that points at it;
 * - in `{ stats: true }`: out `{ stats }`: the proxy's figures and the longest this process's event loop stalled.
 * Closing stdin ends the proxy, the reference and the process.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { startReference, type DeliveryRecord } from '../../references/service/index.ts';
import { EMBEDDED_TIME_SCALE } from '../../service/harness/main/embedded.ts';
import { startFieldProxy, type FieldProxy, type FieldProxyOptions } from './field-proxy.ts';

export interface FieldChildStats {
  forwarded: number;
  limited: number;
  dropped: number;
  upstreamErrors: string[];
  busiestKey: number;
  /** The longest this process's event loop was late, ms: a service that stalled says so. */
  maxLoopDelayMs: number;
  /**
   * The reference's own view of its webhook retries, ms: how late one started after its gap (counted from
   * the failed attempt's end), and the longest attempt.
   */
  retries: { latestStartMs: number; longestAttemptMs: number };
}

/** From the dispatcher's records: a retry that came late to the sink was started late, or followed a long attempt. */
function retryFigures(deliveries: readonly DeliveryRecord[], gapAfter: (failed: number) => number): FieldChildStats['retries'] {
  let latestStartMs = 0;
  let longestAttemptMs = 0;
  for (const d of deliveries) {
    for (const [i, a] of d.attempts.entries()) {
      longestAttemptMs = Math.max(longestAttemptMs, a.endedAt - a.startedAt);
      if (i > 0) latestStartMs = Math.max(latestStartMs, a.startedAt - d.attempts[i - 1]!.endedAt - gapAfter(i));
    }
  }
  return { latestStartMs: Math.round(latestStartMs), longestAttemptMs: Math.round(longestAttemptMs) };
}

const say = (o: unknown) => process.stdout.write(JSON.stringify(o) + '\n');

const sinkPort = Number(process.argv[2]);
const ref = await startReference({ webhookBaseUrl: `http://127.0.0.1:${sinkPort}`, timeScale: EMBEDDED_TIME_SCALE });
const loop = monitorEventLoopDelay({ resolution: 20 });
loop.enable();
let proxy: FieldProxy | undefined;
say({ reference: ref.profile });

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const msg = JSON.parse(line) as { options?: FieldProxyOptions; stats?: true };
  if (msg.options) {
    void startFieldProxy(ref.url, msg.options).then((p) => {
      proxy = p;
      say({ url: p.url, profile: ref.built.profileFor(p.url) });
    });
  } else if (msg.stats && proxy) {
    const stats: FieldChildStats = {
      forwarded: proxy.forwarded,
      limited: proxy.limited,
      dropped: proxy.dropped,
      upstreamErrors: [...proxy.upstreamErrors],
      busiestKey: Math.max(0, ...proxy.perKey.values()),
      maxLoopDelayMs: Math.round(loop.max / 1e6),
      retries: retryFigures(ref.built.dispatcher.deliveries, (n) => ref.built.dispatcher.gapAfter(n)),
    };
    say({ stats });
  }
});
lines.on('close', () => {
  void (async () => {
    await proxy?.close();
    await ref.close();
    process.exit(0);
  })();
});
