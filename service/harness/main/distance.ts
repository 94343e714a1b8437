/**
 * How many suite workers a run against a profile's target takes, from how far away the target is.
 *
 * A worker runs one suite file at a time, and most files are chains of requests the spec orders
 * (create, act, read back), so against a distant target a run lasts about the sum of the files'
 * chains divided by the workers: 8 keep a target 50 ms away within 1.5× of loopback
 * (docs/design.md, "Distance: what stays sequential"). Near the target the run is CPU-bound and
 * each worker only adds its start-up and ~45 MB: 4 there; 2 when the target is on this machine (a
 * loopback host), which then shares the suite's CPUs as the embedded reference does (measured on 2
 * CPUs, the whole suite against `serve`: 4 workers 14.3 s, 14.4 s of CPU, 429 MB; 2 workers 13.9-14.3 s,
 * 11.1 s of CPU, 315 MB). The distance is a timed round trip before the workers start: a GET of the
 * list with no key (the spec's 401; never judged, never recorded), timed to the answer's head, sent
 * three times on one connection, the fastest kept: the first pays the connection, and a target just started answers its
 * first requests slowly (a loopback `serve` timed 10.0 ms with the faster of two, then 2.4 ms).
 */
import { request, type Dispatcher } from '../../../core/undici.ts';
import { dispatcherFor, targetHeaders, type ProfileNetwork } from '../../../core/network.ts';
import { isLoopbackHost } from '../../sink/http-helpers.ts';

export const LOCAL_SUITE_WORKERS = 2;
export const NEAR_SUITE_WORKERS = 4;
export const FAR_SUITE_WORKERS = 8;
/** A round trip at least this long (ms) is a distant target: a loopback or same-site target answers in
 * well under it, even on a busy machine (the faster of two), a target in another region in 20 ms or more. */
export const FAR_ROUND_TRIP_MS = 10;
/** Each probe request has this long. */
const PROBE_TIMEOUT_MS = 2_000;

/** Round trips timed; the fastest is kept. */
const PROBES = 3;

/** The fastest of three round trips to the target (ms), or undefined when it did not answer. */
export async function roundTripMs(baseUrl: string, network: ProfileNetwork | undefined): Promise<number | undefined> {
  const origin = new URL(baseUrl).origin;
  const url = `${baseUrl.replace(/\/+$/, '')}/v1/payments?limit=1`;
  const dispatcher = dispatcherFor(origin, network, 1);
  let best: number | undefined;
  try {
    for (let i = 0; i < PROBES; i++) {
      const ms = await headRoundTrip(url, dispatcher, network);
      if (ms === undefined) return best;
      best = best === undefined ? ms : Math.min(best, ms);
    }
    return best;
  } finally {
    void dispatcher.close().catch(() => undefined);
  }
}

/**
 * One round trip, timed to the answer's head: what the distance is, whatever the body (a hostile
 * target's 7.5 MB list timed whole read 60 ms on loopback, and the run took 8 workers for it). The
 * body is read to a small bound and dropped (past it, the connection is dropped with it). Sent once,
 * with no key (the spec's 401), never judged, never recorded, outside the outage circuit.
 */
async function headRoundTrip(url: string, dispatcher: Dispatcher, network: ProfileNetwork | undefined): Promise<number | undefined> {
  const started = performance.now();
  try {
    const res = await request(url, {
      dispatcher, method: 'GET', headers: targetHeaders(network), headersTimeout: PROBE_TIMEOUT_MS, bodyTimeout: PROBE_TIMEOUT_MS,
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    const ms = performance.now() - started;
    await res.body.dump({ limit: PROBE_BODY_BYTES }).catch(() => undefined);
    return ms;
  } catch {
    return undefined;
  }
}

/** Body bytes a probe reads before it drops the answer. */
const PROBE_BODY_BYTES = 64 * 1024;

/**
 * The workers for a target `rttMs` away at `baseUrl` (unknown, it did not answer: near; the preflight
 * says why). A loopback target that is far all the same (a delaying proxy, a tunnel) is far.
 */
export function workersForDistance(rttMs: number | undefined, baseUrl: string): number {
  if (rttMs !== undefined && rttMs >= FAR_ROUND_TRIP_MS) return FAR_SUITE_WORKERS;
  return onThisMachine(baseUrl) ? LOCAL_SUITE_WORKERS : NEAR_SUITE_WORKERS;
}

function onThisMachine(baseUrl: string): boolean {
  try {
    return isLoopbackHost(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}
