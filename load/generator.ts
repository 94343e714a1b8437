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
 * Requests sent before the warm-up ends are checked but not counted in the figures.
 * Requests due inside the window that the connection never got to send count as not sent:
 * they are the shortfall an overloaded target (or generator) causes.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { arrivalClock, type Arrivals } from './arrivals.ts';
import type { Connection } from './connection.ts';
import { Http1Connection } from './http1-connection.ts';
import { UndiciConnection } from './undici-connection.ts';
import { encode, newHistogram, recordMs, type Histogram } from './histogram.ts';
import { Observations, type ObservationSnapshot, type PaymentRef } from './observe.ts';
import { requestFactory, type OutgoingRequest } from './requests.ts';
import { createRequest, OPS, type Op, type ScenarioName } from './scenarios.ts';

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
  pool: readonly PaymentRef[];
  /** Epoch ms at which every generator of the run starts (workers start together). */
  startEpochMs: number;
}

export type ErrorKind = 'timeout' | 'connection' | 'other';

export interface GeneratorResult {
  /** Measured window only: encoded HdrHistogram per operation (µs). */
  histograms: Partial<Record<Op, string>>;
  /** Per second of the window (by due/send time): encoded histogram of every operation. */
  series: string[];
  statuses: Record<Op, Record<string, number>>;
  errorKinds: Record<ErrorKind, number>;
  /** Requests due (open) or sent (closed) within the window; answered ones; never sent. */
  due: number;
  sentInWindow: number;
  answered: number;
  notSent: number;
  warmupAnswered: number;
  expectedInProgress: number;
  obs: ObservationSnapshot;
  internalErrors: string[];
}

const MAX_BODY_BYTES = 1024 * 1024;
/**
 * A request due just before the window's end may be sent just after it (timer and event-loop
 * lateness): it is still sent, and counted, within this grace. A real backlog is far larger.
 */
export const END_GRACE_MS = 250;
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
  constructor(
    readonly windowStart: number,
    readonly windowEnd: number,
  ) {}

  private inWindow(sentAt: number): boolean {
    return sentAt >= this.windowStart && sentAt < this.windowEnd + END_GRACE_MS;
  }

  sent(at: number, n = 1): void {
    if (this.inWindow(at)) this.sentInWindow += n;
  }

  /**
   * One answer (status) or failure (kind) to a request sent at `sentAt`, due at `due`, after
   * `ms`. Counted when SENT in the window (a late request due in the warm-up still counts,
   * with its whole wait); filed in the series under the second it fell due.
   */
  record(op: Op, sentAt: number, due: number, ms: number, status: number | ErrorKind): void {
    if (!this.inWindow(sentAt)) {
      this.warmupAnswered += 1;
      return;
    }
    if (typeof status !== 'number') {
      this.errorKinds[status] += 1;
      return;
    }
    this.answered += 1;
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
export function openConnection(baseUrl: string, timeoutMs: number): Connection {
  return baseUrl.startsWith('https:') ? new UndiciConnection(baseUrl, timeoutMs, MAX_BODY_BYTES) : Http1Connection.forUrl(baseUrl, timeoutMs, MAX_BODY_BYTES);
}

interface Loop {
  cfg: GeneratorConfig;
  rec: Recorder;
  obs: Observations;
  internalErrors: string[];
  windowEnd: number;
  budget: { left: number };
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
  const { cfg, rec } = loop;
  const clock = cfg.rate ? arrivalClock(cfg.arrivals, cfg.rate, cfg.connections, index, cfg.startEpochMs) : null;
  let due = clock ? clock.next() : cfg.startEpochMs;
  for (;;) {
    const t = now();
    if (!clock) due = t;
    // Stop at the window's end even with a backlog: late requests are counted below, not sent.
    if (due >= loop.windowEnd || t >= loop.windowEnd + END_GRACE_MS || loop.budget.left <= 0) break;
    const slept = due - t >= 1;
    if (slept) await sleep(due - t);
    loop.budget.left -= 1;
    if (due >= rec.windowStart) rec.due += 1;
    const req = next();
    // Late: from the due time (the wait counts). Early (timers fire up to 1 ms early, and a
    // sub-millisecond wait is not slept): from the send time, never less than the service time.
    // Without a sleep the clock read above is the send time (a clock read per request saved).
    const sentAt = slept ? now() : t;
    rec.sent(sentAt);
    const from = Math.min(due, sentAt);
    try {
      const res = await exchange.send(req);
      rec.record(req.sent.op, sentAt, due, now() - from, res.status);
      observe(loop, req, res.status, res.body);
    } catch (e) {
      rec.record(req.sent.op, sentAt, due, 0, errorKind(e));
    }
    if (clock) due = clock.next();
  }
  // What else fell due in the window was offered but never sent.
  for (; clock && due < loop.windowEnd; due = clock.next()) {
    if (due < rec.windowStart) continue;
    rec.due += 1;
    rec.notSent += 1;
  }
}

/** idempotency-storm: rounds of one create (same key, same bytes) fired on every connection at once. */
async function stormLoop(loop: Loop, clients: Connection[], round: { n: number }): Promise<void> {
  const { cfg, rec } = loop;
  const prefix = new URL(cfg.baseUrl).pathname.replace(/\/+$/, '');
  const headers = { authorization: `Bearer ${cfg.key}`, accept: 'application/json', 'content-type': 'application/json' };
  while (now() < loop.windowEnd && loop.budget.left >= clients.length) {
    const c = createRequest(cfg.runId, ++round.n * 2, `${cfg.tag}-storm`); // even seq: keyed
    const at = now();
    loop.budget.left -= clients.length;
    if (at >= rec.windowStart) rec.due += clients.length;
    rec.sent(at, clients.length);
    const answers = await Promise.all(
      clients.map(async (client) => {
        try {
          const res = await client.send({ method: 'POST', path: `${prefix}/v1/payments`, headers: { ...headers, 'idempotency-key': c.idempotencyKey! }, body: c.body });
          rec.record('create', at, at, now() - at, res.status);
          const body = res.body.toString('utf8');
          if (res.status === 409 && at >= rec.windowStart && body.includes('"idempotency_in_progress"')) rec.expectedInProgress += 1;
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

export async function runGenerator(cfg: GeneratorConfig): Promise<GeneratorResult> {
  const windowStart = cfg.startEpochMs + cfg.warmupS * 1000;
  const windowEnd = windowStart + cfg.durationS * 1000;
  const loop: Loop = { cfg, rec: new Recorder(windowStart, windowEnd), obs: new Observations(), internalErrors: [], windowEnd, budget: { left: cfg.maxRequests } };
  const clients = Array.from({ length: cfg.connections }, () => openConnection(cfg.baseUrl, cfg.timeoutMs));
  try {
    if (cfg.startEpochMs > now()) await sleep(cfg.startEpochMs - now());
    if (cfg.scenario === 'idempotency-storm') await stormLoop(loop, clients, { n: 0 });
    else {
      const next = requestFactory({ baseUrl: cfg.baseUrl, key: cfg.key, runId: cfg.runId, tag: cfg.tag, mix: cfg.mix, pool: cfg.pool, obs: loop.obs });
      await Promise.all(clients.map((c, i) => connectionLoop(loop, i, c, next)));
    }
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
  const { rec } = loop;
  const histograms: Partial<Record<Op, string>> = {};
  for (const op of OPS) if (rec.hist[op]) histograms[op] = encode(rec.hist[op]!);
  return {
    histograms,
    series: rec.series.map(encode),
    statuses: rec.statuses,
    errorKinds: rec.errorKinds,
    due: rec.due,
    sentInWindow: rec.sentInWindow,
    answered: rec.answered,
    notSent: rec.notSent,
    warmupAnswered: rec.warmupAnswered,
    expectedInProgress: rec.expectedInProgress,
    obs: loop.obs.snapshot(),
    internalErrors: loop.internalErrors,
  };
}
