/**
 * The load generator of one thread: one connection per --connections, one request at a time on
 * each (plain HTTP/1.1 for http:, undici for https:), so the connection pool is bounded by
 * construction.
 *
 * - open model (rate set): each connection owns a share of the arrival schedule (arrivals.ts)
 *   and sends each request when it falls due, or at once when it is late (the connection was
 *   busy); the latency is taken from the DUE time, not the send time (wrk2's correction for
 *   coordinated omission), so a stall shows in every request that fell due during it.
 * - closed model (no rate): each connection sends its next request as soon as the answer to
 *   the previous one is in; the latency is taken from the send time.
 *
 * Requests sent before the warm-up ends are checked but not counted in the figures; the warm-up
 * may use at most a tenth of the request cap (then it waits for the window), so a capped run
 * always measures. Requests due inside the window that the connection never got to send count as
 * not sent: the shortfall an overloaded target (or generator) causes. A run stopped by the cap
 * is measured up to its last answer (measuredMs), not over the nominal window.
 *
 * 429 answers are counted apart (throttle.ts); in the closed model with `honourRetryAfter`, a
 * connection answered 429 waits the Retry-After (bounded) before its next request.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { arrivalClock, type Arrivals } from './arrivals.ts';
import type { Connection, ConnectionAnswer } from './connection.ts';
import { Http1Connection } from './http1-connection.ts';
import { needsDispatcher, UndiciConnection } from './undici-connection.ts';
import type { ProfileNetwork } from '../core/network.ts';
import { encode, newHistogram, recordMs, type Histogram } from './histogram.ts';
import { WorkerMetrics, type WorkerMetricsSnapshot } from './worker-metrics.ts';
import { IntervalTally, startIntervals, type IntervalSnapshot } from './intervals.ts';
import { TimelineTally } from './timeline.ts';
import type { TimelineModel } from '../catalogue/report/load-model.ts';
import { Observations, type ObservationSnapshot, type PaymentRef } from './observe.ts';
import { requestFactory, type OutgoingRequest } from './requests.ts';
import { createRequest, OPS, type Op, type ScenarioName } from './scenarios.ts';
import { countRateLimited, MAX_RETRY_AFTER_WAIT_MS, newThrottleTally, retryAfterSeconds, type ThrottleTally } from './throttle.ts';

export interface GeneratorConfig {
  baseUrl: string;
  key: string;
  runId: string;
  /** Key-space tag of this generator (shard and worker), e.g. "s1-w0". */
  tag: string;
  scenario: ScenarioName;
  mix: Record<Op, number>;
  /** This generator's share of the offered rate (req/s); undefined = closed model. */
  rate?: number;
  arrivals: Arrivals;
  connections: number;
  warmupS: number;
  durationS: number;
  timeoutMs: number;
  maxRequests: number;
  /** Closed model: after a 429, wait its Retry-After before the connection's next request. */
  honourRetryAfter?: boolean;
  /** Snapshot the counts every this many ms of the window (given with runGenerator's onInterval). */
  intervalMs?: number;
  pool: readonly PaymentRef[];
  /** Epoch ms at which every generator of the run starts (workers start together). */
  startEpochMs: number;
  /** How the target is reached (the profile's network section: headers, mutual TLS). */
  network?: ProfileNetwork;
  /** `--metrics-port` or `--out prometheus-rw`: count the Prometheus metrics too (worker-metrics.ts). */
  metrics?: boolean;
}

export type ErrorKind = 'timeout' | 'connection' | 'other';

export interface GeneratorResult {
  /** Measured window only: encoded HdrHistogram per operation (µs). */
  histograms: Partial<Record<Op, string>>;
  /** Per second of the window (by due/send time): encoded histogram of every operation. */
  series: string[];
  /** Answers and errors per operation and bucket of the window (by due/send time). */
  timeline: TimelineModel;
  statuses: Record<Op, Record<string, number>>;
  errorKinds: Record<ErrorKind, number>;
  /** Requests due (open) or sent (closed) within the window; answered ones; never sent. */
  due: number;
  sentInWindow: number;
  answered: number;
  notSent: number;
  warmupAnswered: number;
  expectedInProgress: number;
  /** Time measured (ms from the window's start): the window, or up to the last answer when the cap stopped the run. */
  measuredMs: number;
  /** The request cap ended the run before the window did. */
  stoppedByCap: boolean;
  /** A stop (the run interrupted: SIGINT/SIGTERM) ended the run before the window did. */
  stoppedBySignal?: boolean;
  throttle: ThrottleTally;
  obs: ObservationSnapshot;
  internalErrors: string[];
  /** With cfg.metrics: the generator's Prometheus samples at its end. */
  metrics?: WorkerMetricsSnapshot;
}

const MAX_BODY_BYTES = 1024 * 1024;
/**
 * A request due just before the window's end may be sent just after it (timer and event-loop
 * lateness): it is still sent, and counted, within this grace. A real backlog is far larger.
 */
export const END_GRACE_MS = 250;
/** The share of the request cap the warm-up may use. */
export const WARMUP_CAP_SHARE = 0.1;
const now = (): number => performance.timeOrigin + performance.now();

class Recorder {
  readonly hist: Partial<Record<Op, Histogram>> = {};
  readonly series: Histogram[] = [];
  readonly statuses: Record<Op, Record<string, number>> = { create: {}, read: {}, list: {} };
  readonly errorKinds: Record<ErrorKind, number> = { timeout: 0, connection: 0, other: 0 };
  due = 0;
  /** Requests sent during the window (whenever they fell due): the achieved rate. */
  sentInWindow = 0;
  answered = 0;
  notSent = 0;
  warmupAnswered = 0;
  /** idempotency-storm: 409 idempotency_in_progress answers in the window (expected, not errors). */
  expectedInProgress = 0;
  readonly throttle = newThrottleTally();
  /** The interval in progress (the live line and --out ndjson). */
  readonly interval = new IntervalTally();
  readonly timeline: TimelineTally;
  /** When the last request sent in the window ended (answer or failure). */
  lastEndAt = 0;
  stoppedByCap = false;
  /** When a stop came (the run interrupted), if one did. */
  stoppedAt: number | undefined;
  constructor(
    readonly windowStart: number,
    readonly windowEnd: number,
    readonly metrics?: WorkerMetrics,
  ) {
    this.timeline = new TimelineTally((windowEnd - windowStart) / 1000);
  }

  inWindow(sentAt: number): boolean {
    return sentAt >= this.windowStart && sentAt < this.windowEnd + END_GRACE_MS;
  }

  sent(at: number, n = 1): void {
    if (!this.inWindow(at)) return;
    this.sentInWindow += n;
    this.interval.onSent(n);
  }

  /**
   * One answer (status) or failure (kind) to a request sent at `sentAt`, due at `due`, after
   * `ms`. Counted when SENT in the window (a late request due in the warm-up still counts,
   * with its whole wait); filed in the series under the second it fell due.
   */
  record(op: Op, sentAt: number, due: number, ms: number, status: number | ErrorKind, endedAt = now()): void {
    if (!this.inWindow(sentAt)) {
      this.warmupAnswered += 1;
      return;
    }
    if (endedAt > this.lastEndAt) this.lastEndAt = endedAt;
    this.timeline.add(op, due - this.windowStart, typeof status === 'number', typeof status !== 'number' || status < 200 || status > 299);
    if (typeof status !== 'number') {
      this.errorKinds[status] += 1;
      this.interval.onFailure();
      this.metrics?.failure(op, status);
      return;
    }
    this.answered += 1;
    this.interval.onAnswer(status, ms);
    this.metrics?.answer(op, status, ms);
    recordMs((this.hist[op] ??= newHistogram()), ms);
    const sec = Math.max(0, Math.floor((due - this.windowStart) / 1000));
    while (this.series.length <= sec) this.series.push(newHistogram(2));
    recordMs(this.series[sec]!, ms);
    const s = this.statuses[op];
    s[status] = (s[status] ?? 0) + 1;
  }
}

function errorKind(e: unknown): ErrorKind {
  const code = (e as { code?: string })?.code ?? '';
  if (/TIMEOUT/.test(code)) return 'timeout';
  if (/^(ECONN|EPIPE|ENOTFOUND|EHOSTUNREACH|UND_ERR_SOCKET|UND_ERR_CLOSED|HPS_CONNECTION_CLOSED)/.test(code)) return 'connection';
  return 'other';
}

/** One connection of the generator: plain HTTP/1.1 for http:, undici for https:. */
export function openConnection(baseUrl: string, timeoutMs: number, network?: ProfileNetwork): Connection {
  // A proxy, gateway headers or mutual TLS: undici carries it whatever the scheme (core/network.ts).
  if (baseUrl.startsWith('https:') || needsDispatcher(network)) return new UndiciConnection(baseUrl, timeoutMs, MAX_BODY_BYTES, network);
  return Http1Connection.forUrl(baseUrl, timeoutMs, MAX_BODY_BYTES);
}

interface Loop {
  cfg: GeneratorConfig;
  rec: Recorder;
  obs: Observations;
  internalErrors: string[];
  windowEnd: number;
  /** Requests left under the cap; of them, how many the warm-up may still use. */
  budget: { left: number; warmupLeft: number };
  /** Aborted when the run is interrupted: no new request is sent, waits end at once. */
  stop: AbortSignal | undefined;
}

/** A wait that a stop ends at once (never rejects). */
function waitUnlessStopped(ms: number, stop: AbortSignal | undefined): Promise<void> {
  if (stop?.aborted) return Promise.resolve();
  return sleep(ms, undefined, stop ? { signal: stop } : undefined).catch(() => undefined);
}

/** The run is interrupted: the window ends now (what fell due later was never offered). */
function stopNow(loop: Loop): void {
  const at = now();
  loop.rec.stoppedAt = at;
  loop.windowEnd = Math.min(loop.windowEnd, at);
}

function observe(loop: Loop, req: OutgoingRequest, status: number, body: Buffer): void {
  try {
    loop.obs.observe(req.sent, status, body);
  } catch (e) {
    if (loop.internalErrors.length < 5) loop.internalErrors.push((e as Error).message);
  }
}

/** One connection of the open or closed model, until the window ends or the budget is spent. */
async function connectionLoop(loop: Loop, index: number, exchange: Connection, next: () => OutgoingRequest): Promise<void> {
  const { cfg, rec, budget } = loop;
  const clock = cfg.rate ? arrivalClock(cfg.arrivals, cfg.rate, cfg.connections, index, cfg.startEpochMs) : null;
  let due = clock ? clock.next() : cfg.startEpochMs;
  for (;;) {
    const t = now();
    if (!clock) due = t;
    // Stop at the window's end even with a backlog: late requests are counted below, not sent.
    if (due >= loop.windowEnd || t >= loop.windowEnd + END_GRACE_MS) break;
    if (budget.left <= 0) {
      rec.stoppedByCap = true;
      return; // stopped by the cap: what would have fell due later was never offered
    }
    const warm = Math.max(due, t) < rec.windowStart;
    if (warm && budget.warmupLeft <= 0) {
      // The warm-up's share of the cap is spent: skip its remaining arrivals, or wait for the window.
      if (clock) due = clock.next();
      else await waitUnlessStopped(rec.windowStart - t, loop.stop);
      continue;
    }
    budget.left -= 1;
    if (warm) budget.warmupLeft -= 1;
    const slept = due - t >= 1;
    if (slept) await waitUnlessStopped(due - t, loop.stop);
    if (loop.stop?.aborted) break;
    // Late: from the due time (the wait counts). Early (timers fire up to 1 ms early, and a
    // sub-millisecond wait is not slept): from the send time, never less than the service time.
    // Without a sleep the clock read above is the send time (a clock read per request saved).
    const sentAt = slept ? now() : t;
    // The exchange, inline (one promise per request: the answer's, no async call around it).
    const req = next();
    const measured = rec.inWindow(sentAt);
    if (measured) rec.due += 1; // due = sent + never sent, exactly
    rec.sent(sentAt);
    let waitS: number | null = null;
    try {
      waitS = answered(loop, req, await exchange.send(req), sentAt, due, measured);
    } catch (e) {
      rec.record(req.sent.op, sentAt, due, 0, errorKind(e));
    }
    if (waitS !== null && !clock && cfg.honourRetryAfter) await waitRetryAfter(loop, waitS, measured);
    if (clock) due = clock.next();
  }
  // What else fell due in the window was offered but never sent.
  for (; clock && due < loop.windowEnd; due = clock.next()) {
    if (due < rec.windowStart) continue;
    rec.due += 1;
    rec.notSent += 1;
  }
}

/**
 * Records the answer to a request sent at `sentAt`, due at `due` (its latency from the earlier of
 * the two) and checks it; a 429 is counted apart. Returns the Retry-After to wait, in seconds, or
 * null. Whatever it throws, the caller records the request as failed, as a failed send.
 */
function answered(loop: Loop, req: OutgoingRequest, res: ConnectionAnswer, sentAt: number, due: number, measured: boolean): number | null {
  const { rec } = loop;
  const end = now();
  rec.record(req.sent.op, sentAt, due, end - Math.min(due, sentAt), res.status, end);
  let waitS: number | null = null;
  if (res.status === 429) waitS = measured ? countRateLimited(rec.throttle, res.retryAfter) : retryAfterSeconds(res.retryAfter);
  observe(loop, req, res.status, res.body);
  return waitS;
}

/** Closed model with --honour-retry-after: waits out a 429's Retry-After (bounded, and not past the window). */
async function waitRetryAfter(loop: Loop, waitS: number, measured: boolean): Promise<void> {
  const { rec } = loop;
  const ms = Math.min(waitS * 1000, MAX_RETRY_AFTER_WAIT_MS, loop.windowEnd + END_GRACE_MS - now());
  if (ms > 0) {
    if (measured) [rec.throttle.waits, rec.throttle.waitedMs] = [rec.throttle.waits + 1, rec.throttle.waitedMs + ms];
    await waitUnlessStopped(ms, loop.stop);
  }
}

/** idempotency-storm: rounds of one create (same key, same bytes) fired on every connection at once. */
async function stormLoop(loop: Loop, clients: Connection[], round: { n: number }): Promise<void> {
  const { cfg, rec } = loop;
  const prefix = new URL(cfg.baseUrl).pathname.replace(/\/+$/, '');
  const headers = { authorization: `Bearer ${cfg.key}`, accept: 'application/json', 'content-type': 'application/json' };
  while (now() < loop.windowEnd) {
    if (loop.budget.left < clients.length) {
      rec.stoppedByCap = true;
      break;
    }
    const c = createRequest(cfg.runId, ++round.n * 2, `${cfg.tag}-storm`); // even seq: keyed
    const at = now();
    loop.budget.left -= clients.length;
    if (rec.inWindow(at)) rec.due += clients.length;
    rec.sent(at, clients.length);
    const answers = await Promise.all(
      clients.map(async (client) => {
        try {
          const res = await client.send({
            method: 'POST',
            path: `${prefix}/v1/payments`,
            headers: { ...headers, 'idempotency-key': c.idempotencyKey! },
            body: c.body,
          });
          rec.record('create', at, at, now() - at, res.status);
          const body = res.body.toString('utf8');
          if (res.status === 409 && at >= rec.windowStart && body.includes('"idempotency_in_progress"')) {
            rec.expectedInProgress += 1;
            rec.timeline.notAnError('create', at - rec.windowStart);
          }
          return { status: res.status, body };
        } catch (e) {
          rec.record('create', at, at, 0, errorKind(e));
          return null;
        }
      }),
    );
    try {
      loop.obs.observeStorm(c.externalId, answers.filter((a) => a !== null));
    } catch (e) {
      if (loop.internalErrors.length < 5) loop.internalErrors.push((e as Error).message);
    }
  }
}

/** `onInterval` hears each interval's snapshot while the run goes (every cfg.intervalMs of the window). */
export async function runGenerator(
  cfg: GeneratorConfig,
  onInterval?: (s: IntervalSnapshot) => void,
  stop?: AbortSignal,
): Promise<GeneratorResult> {
  const windowStart = cfg.startEpochMs + cfg.warmupS * 1000;
  const windowEnd = windowStart + cfg.durationS * 1000;
  const warmupCap = cfg.warmupS > 0 ? Math.ceil(cfg.maxRequests * WARMUP_CAP_SHARE) : 0;
  const metrics = cfg.metrics ? new WorkerMetrics(cfg.tag, { run_id: cfg.runId, scenario: cfg.scenario }) : undefined;
  const loop: Loop = {
    cfg,
    rec: new Recorder(windowStart, windowEnd, metrics),
    obs: new Observations(),
    internalErrors: [],
    windowEnd,
    budget: { left: cfg.maxRequests, warmupLeft: warmupCap },
    stop,
  };
  if (stop?.aborted) stopNow(loop);
  else stop?.addEventListener('abort', () => stopNow(loop), { once: true });
  const clients = Array.from({ length: cfg.connections }, () => openConnection(cfg.baseUrl, cfg.timeoutMs, cfg.network));
  const intervals = onInterval && cfg.intervalMs ? startIntervals(
    loop.rec.interval,
    windowStart,
    windowEnd,
    cfg.intervalMs,
    metrics ? (s) => void metrics.snapshot(false).then((m) => onInterval({ ...s, metrics: m })) : onInterval,
    now,
  ) : null;
  try {
    if (cfg.startEpochMs > now()) await waitUnlessStopped(cfg.startEpochMs - now(), stop);
    if (cfg.scenario === 'idempotency-storm') await stormLoop(loop, clients, { n: 0 });
    else {
      const next = requestFactory({ baseUrl: cfg.baseUrl, key: cfg.key, runId: cfg.runId, tag: cfg.tag, mix: cfg.mix, pool: cfg.pool, obs: loop.obs });
      await Promise.all(clients.map((c, i) => connectionLoop(loop, i, c, next)));
    }
  } finally {
    intervals?.stop();
    await Promise.all(clients.map((c) => c.close()));
  }
  const { rec } = loop;
  const histograms: Partial<Record<Op, string>> = {};
  for (const op of OPS) if (rec.hist[op]) histograms[op] = encode(rec.hist[op]!);
  return {
    histograms,
    series: rec.series.map(encode),
    timeline: rec.timeline.snapshot(),
    statuses: rec.statuses,
    errorKinds: rec.errorKinds,
    due: rec.due,
    sentInWindow: rec.sentInWindow,
    answered: rec.answered,
    notSent: rec.notSent,
    warmupAnswered: rec.warmupAnswered,
    expectedInProgress: rec.expectedInProgress,
    measuredMs: measuredMsOf(rec, windowStart, windowEnd),
    stoppedByCap: rec.stoppedByCap,
    ...(rec.stoppedAt !== undefined && rec.stoppedAt < windowEnd ? { stoppedBySignal: true } : {}),
    throttle: rec.throttle,
    obs: loop.obs.snapshot(),
    internalErrors: loop.internalErrors,
    ...(metrics ? { metrics: await metrics.snapshot(true) } : {}),
  };
}

/** The time measured: the window; up to the last answer when the cap stopped the run; up to the stop when interrupted. */
function measuredMsOf(rec: Recorder, windowStart: number, windowEnd: number): number {
  if (rec.stoppedAt !== undefined && rec.stoppedAt < windowEnd) return Math.max(0, rec.stoppedAt - windowStart);
  return rec.stoppedByCap ? Math.max(0, rec.lastEndAt - windowStart) : windowEnd - windowStart;
}
