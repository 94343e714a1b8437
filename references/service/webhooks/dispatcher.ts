/**
 * Webhook delivery (spec, "Events" > "Delivery request", "Delivery rules"; "Limits").
 *
 * - One delivery per (event, endpoint); deliveries to different endpoints are independent.
 * - Each attempt POSTs the event's stored bytes with the same `Service-Event-ID`, signed
 *   at send time.
 * - Any 2xx acknowledges. 3xx (never followed), 4xx, 5xx, a response not completed
 *   within the time-out (10 s, never scaled), a connection error or reset: failure.
 * - After a failure the next attempt waits a gap measured from the end of the failed
 *   attempt: immediately, 30 s, 2 min, 10 min, 30 min, 2 h, 6 h (each divided by
 *   timeScale). At most 8 attempts in all.
 *
 * What goes out on an attempt and how its answer is read are the steps of delivery-steps.ts,
 * where the planted faults of delivery sit, each beside the step it breaks; this file is the
 * scheduling and the transport.
 */
import http from 'node:http';
import https from 'node:https';
import type { FaultSet } from '../faults.ts';
import type { StoredEvent, WebhookEndpoint } from '../types.ts';
import { MAX_ATTEMPTS, deliverySteps, type AttemptResult, type DeliverySteps } from './delivery-steps.ts';


export interface DispatcherOptions {
  /** The sink's public URL; an endpoint's URL is this + its path. */
  baseUrl: string;
  timeScale: number;
  timeoutMs: number;
  now: () => number;
  faults: FaultSet;
  /** retryGapFrom decision: a gap counts from the end of the failed attempt, or from its start. */
  gapFrom?: 'attempt-end' | 'attempt-start';
  /** deliveryConnections decision: a fresh connection per attempt, or kept-alive connections reused. */
  connections?: 'fresh' | 'keep-alive';
}

export interface AttemptRecord {
  number: number;
  startedAt: number;
  endedAt: number;
  /** Response status, or null when none was received completely. */
  status: number | null;
  error: string | null;
  ok: boolean;
}

export type DeliveryState = 'scheduled' | 'in_flight' | 'succeeded' | 'failed' | 'cancelled';

export interface DeliveryRecord {
  eventId: string;
  eventType: string;
  endpointPath: string;
  url: string;
  state: DeliveryState;
  attempts: AttemptRecord[];
}

/**
 * Node's agent honours a receiver's `Keep-Alive: timeout=N` (dropping an idle socket 1 s before it)
 * only when `timeout` is set; without it an attempt can go out on a socket the receiver is closing,
 * and fail with a reset the receiver never caused. `timeout` itself only ends idle sockets.
 */
const KEPT_ALIVE: http.AgentOptions = { keepAlive: true, maxSockets: 8, timeout: 60_000 };

export class WebhookDispatcher {
  readonly deliveries: DeliveryRecord[] = [];
  readonly #opts: DispatcherOptions;
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #inFlight = new Set<http.ClientRequest>();
  #idleWaiters: (() => void)[] = [];
  #closed = false;
  /** Kept-alive connections (deliveryConnections 'keep-alive'), one pool per scheme; closed with the dispatcher. */
  readonly #agents: { http: http.Agent; https: https.Agent } | null;
  /** The steps of delivery, with the planted faults switched on (delivery-steps.ts). */
  readonly #steps: DeliverySteps;

  constructor(opts: DispatcherOptions) {
    this.#opts = opts;
    this.#steps = deliverySteps(opts.faults);
    this.#agents = opts.connections === 'keep-alive'
      ? { http: new http.Agent(KEPT_ALIVE), https: new https.Agent(KEPT_ALIVE) }
      : null;
  }

  /** Starts one independent delivery of `event` per endpoint; the first attempt goes out at once. */
  deliver(event: StoredEvent, endpoints: readonly WebhookEndpoint[]): void {
    if (this.#closed) return;
    this.#steps.enqueue({ endpoints, start: (endpoint) => this.#start(event, endpoint) });
  }

  #start(event: StoredEvent, endpoint: WebhookEndpoint): void {
    const record: DeliveryRecord = {
      eventId: event.id,
      eventType: event.type,
      endpointPath: endpoint.path,
      url: endpointUrl(this.#opts.baseUrl, endpoint.path),
      state: 'scheduled',
      attempts: [],
    };
    this.deliveries.push(record);
    this.#schedule(record, event, endpoint, 0);
  }

  /** Scaled gap before the attempt following `failedAttempts` failures. */
  gapAfter(failedAttempts: number): number {
    return this.#steps.gap(failedAttempts) / this.#opts.timeScale;
  }

  /** Resolves once nothing is scheduled or in flight (tests). */
  whenIdle(): Promise<void> {
    if (this.#isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Cancels every scheduled attempt and aborts those in flight. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const req of this.#inFlight) req.destroy(new Error('dispatcher closed'));
    this.#inFlight.clear();
    for (const d of this.deliveries) if (d.state === 'scheduled' || d.state === 'in_flight') d.state = 'cancelled';
    this.#agents?.http.destroy();
    this.#agents?.https.destroy();
    this.#notifyIdle();
  }

  #schedule(record: DeliveryRecord, event: StoredEvent, endpoint: WebhookEndpoint, delayMs: number): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      void this.#attempt(record, event, endpoint);
    }, delayMs);
    this.#timers.add(timer);
  }

  /** One attempt: the steps of delivery in order, then the attempt is recorded and the next one scheduled or not. */
  async #attempt(record: DeliveryRecord, event: StoredEvent, endpoint: WebhookEndpoint): Promise<void> {
    if (this.#closed) return;
    const steps = this.#steps;
    if (record.attempts.length > 0 && steps.delivered({ delivery: record, all: this.deliveries })) {
      record.state = 'succeeded';
      this.#notifyIdle();
      return;
    }
    record.state = 'in_flight';
    const startedAt = this.#opts.now();
    const timestamp = steps.timestamp({ startedAtMs: startedAt, firstStartedAtMs: record.attempts[0]?.startedAt ?? startedAt });
    const { body, eventId } = steps.body({ event, retry: record.attempts.length > 0 });
    const signature = steps.signature({ secret: endpoint.secret, timestamp, body });
    const headers = steps.headers({ body, eventId, signature });
    const result = await steps.post({ url: record.url, body, headers, send: (url, b, h, method) => this.#post(url, b, h, method) });
    if (this.#closed) return;
    const ok = steps.acknowledged(result.status);
    record.attempts.push({
      number: record.attempts.length + 1,
      startedAt,
      endedAt: this.#opts.now(),
      status: result.status,
      error: result.error,
      ok,
    });
    this.#settle(record, event, endpoint, startedAt);
    this.#notifyIdle();
  }

  /** After an attempt: succeeded, failed for good (the attempt limit), or the next attempt scheduled after its gap. */
  #settle(record: DeliveryRecord, event: StoredEvent, endpoint: WebhookEndpoint, startedAt: number): void {
    if (this.#steps.delivered({ delivery: record, all: this.deliveries })) {
      record.state = 'succeeded';
    } else if (record.attempts.length >= this.#steps.attemptLimit(MAX_ATTEMPTS)) {
      record.state = 'failed';
    } else {
      record.state = 'scheduled';
      const gap = this.gapAfter(record.attempts.length);
      const spent = this.#opts.gapFrom === 'attempt-start' ? this.#opts.now() - startedAt : 0;
      this.#schedule(record, event, endpoint, Math.max(0, gap - spent));
    }
  }

  /** One POST; resolves with the status once the response body has ended, or with the error. */
  #post(url: string, body: Buffer, headers: Record<string, string>, method = 'POST'): Promise<AttemptResult> {
    return new Promise((resolve) => {
      let settled = false;
      let req: http.ClientRequest | null = null;
      const finish = (result: AttemptResult): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (req !== null) this.#inFlight.delete(req);
        resolve(result);
      };
      const timeoutMs = this.#steps.timeout(this.#opts.timeoutMs);
      const timer = setTimeout(() => {
        finish({ status: null, error: `no complete response within ${timeoutMs} ms` });
        req?.destroy();
      }, timeoutMs);
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        finish({ status: null, error: `invalid endpoint URL ${url}` });
        return;
      }
      const client = target.protocol === 'https:' ? https : http;
      try {
        // agent: false: a fresh connection per attempt, closed after it (no stale keep-alive sockets).
        const agent = this.#agents === null ? false : target.protocol === 'https:' ? this.#agents.https : this.#agents.http;
        req = client.request(target, { method, headers, agent });
      } catch (err) {
        finish({ status: null, error: describe(err) });
        return;
      }
      this.#inFlight.add(req);
      req.on('response', (res) => {
        const status = res.statusCode ?? null;
        res.on('data', () => {});
        const location = typeof res.headers.location === 'string' ? res.headers.location : undefined;
        res.on('end', () => finish({ status, error: null, ...(location === undefined ? {} : { location }) }));
        res.on('aborted', () => finish({ status: null, error: 'response aborted' }));
        res.on('error', (err) => finish({ status: null, error: describe(err) }));
        res.on('close', () => finish({ status: null, error: 'connection closed before the response ended' }));
      });
      req.on('error', (err) => finish({ status: null, error: describe(err) }));
      req.on('close', () => finish({ status: null, error: 'connection closed without a response' }));
      req.end(body);
    });
  }

  #isIdle(): boolean {
    return this.#timers.size === 0 && this.#inFlight.size === 0 &&
      !this.deliveries.some((d) => d.state === 'in_flight' || d.state === 'scheduled');
  }

  #notifyIdle(): void {
    if (!this.#isIdle()) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const w of waiters) w();
  }
}

export function endpointUrl(baseUrl: string, path: string): string {
  return baseUrl.replace(/\/+$/, '') + path;
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    return code !== undefined ? `${code}: ${err.message}` : err.message;
  }
  return String(err);
}
