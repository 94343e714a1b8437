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
 */
import http from 'node:http';
import https from 'node:https';
import { NO_FAULTS, type FaultSet } from '../faults.ts';
import { newEventId, newObjectId } from '../ids.ts';
import type { StoredEvent, WebhookEndpoint } from '../types.ts';
import { signatureHeader } from './sign.ts';

/** Gap before attempt n+2, after attempt n+1 failed. */
export const RETRY_GAPS_MS: readonly number[] = [
  0,
  30_000,
  2 * 60_000,
  10 * 60_000,
  30 * 60_000,
  2 * 60 * 60_000,
  6 * 60 * 60_000,
];
export const MAX_ATTEMPTS = RETRY_GAPS_MS.length + 1;
export const USER_AGENT = 'Service-Webhooks/1.0';

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

interface AttemptResult {
  status: number | null;
  error: string | null;
  /** The response's Location header, when it had one. */
  location?: string;
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

  constructor(opts: DispatcherOptions) {
    this.#opts = opts;
    this.#agents = opts.connections === 'keep-alive'
      ? { http: new http.Agent(KEPT_ALIVE), https: new https.Agent(KEPT_ALIVE) }
      : null;
  }

  /** Starts one independent delivery of `event` per endpoint; the first attempt goes out at once. */
  deliver(event: StoredEvent, endpoints: readonly WebhookEndpoint[]): void {
    if (this.#closed) return;
    if (this.#opts.faults.has('webhooks-never-sent')) {
      /* FAULT webhooks-never-sent: the outbox is written but no worker ever drains it: nothing is delivered */
      return;
    }
    for (const endpoint of endpoints) {
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
  }

  /** Scaled gap before the attempt following `failedAttempts` failures. */
  gapAfter(failedAttempts: number): number {
    if (this.#opts.faults.has('retry-gaps-shifted')) {
      /* FAULT retry-gaps-shifted: the schedule is read one step behind: two immediate retries, then 30 s where 2 min is due, and so on */
      return (RETRY_GAPS_MS[failedAttempts - 2] ?? 0) / this.#opts.timeScale;
    }
    if (this.#opts.faults.has('retry-backoff-doubled')) {
      /* FAULT retry-backoff-doubled: a generic exponential backoff multiplier is applied on top of the schedule, doubling every gap */
      return (2 * (RETRY_GAPS_MS[failedAttempts - 1] ?? 0)) / this.#opts.timeScale;
    }
    const gap = RETRY_GAPS_MS[failedAttempts - 1] ?? 0;
    return gap / this.#opts.timeScale;
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

  async #attempt(record: DeliveryRecord, event: StoredEvent, endpoint: WebhookEndpoint): Promise<void> {
    if (this.#closed) return;
    record.state = 'in_flight';
    const faults = this.#opts.faults;
    const startedAt = this.#opts.now();
    let timestamp = Math.floor(startedAt / 1000);
    if (faults.has('signature-clock-behind')) {
      /* FAULT signature-clock-behind: t comes from a worker clock 10 minutes behind (not NTP-synced) */
      timestamp -= 600;
    }
    if (faults.has('signature-clock-301s-behind')) {
      /* FAULT signature-clock-301s-behind: t comes from a clock 301 s behind, one second past the 5-minute tolerance */
      timestamp -= 301;
    }
    let body = event.body;
    let eventId = event.id;
    if (faults.has('retry-gets-new-event-id') && record.attempts.length > 0) {
      /* FAULT retry-gets-new-event-id: a retry is enqueued as a new event, with a fresh id in the body and the header */
      eventId = newEventId();
      body = Buffer.from(JSON.stringify({ ...JSON.parse(event.body.toString('utf8')), id: eventId }), 'utf8');
    }
    let signed = body;
    if (faults.has('signature-over-reserialised-json')) {
      /* FAULT signature-over-reserialised-json: the HMAC covers a re-serialisation with non-ASCII escaped as \uXXXX, not the bytes sent */
      signed = Buffer.from(
        JSON.stringify(JSON.parse(body.toString('utf8'))).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
        'utf8',
      );
    }
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'Content-Length': String(body.length),
      'Service-Event-ID': eventId,
      'Service-Signature': signatureHeader(endpoint.secret, timestamp, signed),
      'User-Agent': USER_AGENT,
    };
    if (faults.has('user-agent-missing')) {
      /* FAULT user-agent-missing: no User-Agent is set, so the HTTP client sends none */
      delete headers['User-Agent'];
    }
    if (faults.has('event-id-header-is-attempt-id')) {
      /* FAULT event-id-header-is-attempt-id: Service-Event-ID carries the delivery attempt's id, not the event's */
      headers['Service-Event-ID'] = newObjectId('whatt');
    }
    if (faults.has('deliveries-form-content-type')) {
      /* FAULT deliveries-form-content-type: the HTTP client's default content type for a POST body is kept */
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
    }
    let result = await this.#post(record.url, body, headers);
    if (faults.has('redirects-followed') && result.status !== null && result.status >= 300 && result.status < 400 && result.location) {
      /* FAULT redirects-followed: the redirect is followed (the same POST to Location) and its answer taken as the attempt's */
      result = await this.#post(new URL(result.location, record.url).toString(), body, headers);
    }
    if (this.#closed) return;
    const ok = isAcknowledged(result.status, faults);
    let maxAttempts = MAX_ATTEMPTS;
    if (faults.has('nine-attempts')) {
      /* FAULT nine-attempts: off by one in the attempt limit, a failing event is attempted 9 times */
      maxAttempts = MAX_ATTEMPTS + 1;
    }
    if (faults.has('seven-attempts')) {
      /* FAULT seven-attempts: off by one the other way, the attempt counter starts at 1 after the first attempt: the 6 h retry never goes out */
      maxAttempts = MAX_ATTEMPTS - 1;
    }
    record.attempts.push({
      number: record.attempts.length + 1,
      startedAt,
      endedAt: this.#opts.now(),
      status: result.status,
      error: result.error,
      ok,
    });
    if (ok) {
      record.state = 'succeeded';
    } else if (record.attempts.length >= maxAttempts) {
      record.state = 'failed';
    } else {
      record.state = 'scheduled';
      const gap = this.gapAfter(record.attempts.length);
      const spent = this.#opts.gapFrom === 'attempt-start' ? this.#opts.now() - startedAt : 0;
      this.#schedule(record, event, endpoint, Math.max(0, gap - spent));
    }
    this.#notifyIdle();
  }

  /** One POST; resolves with the status once the response body has ended, or with the error. */
  #post(url: string, body: Buffer, headers: Record<string, string>): Promise<AttemptResult> {
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
      // Fault `webhook-timeout-5s`: the HTTP client's default time-out of 5 s was never raised to the spec's 10 s.
      const timeoutMs = this.#opts.faults.has('webhook-timeout-5s') ? 5_000 : this.#opts.timeoutMs;
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
        req = client.request(target, { method: 'POST', headers, agent });
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

/** "Any 2xx response acknowledges." */
export function isAcknowledged(status: number | null, faults: FaultSet = NO_FAULTS): boolean {
  if (faults.has('only-200-acknowledges')) {
    /* FAULT only-200-acknowledges: only 200 counts as an acknowledgement; 201, 202, 204 … are retried */
    return status === 200;
  }
  if (faults.has('empty-204-counted-as-failure') && status === 204) {
    /* FAULT empty-204-counted-as-failure: the answer body is parsed as JSON to read a status field; an empty 204 fails the parse and counts as a failure */
    return false;
  }
  if (faults.has('client-errors-treated-as-ack') && status !== null && status >= 400 && status <= 499) {
    /* FAULT client-errors-treated-as-ack: a 4xx is taken as the receiver's final answer and never retried */
    return true;
  }
  return status !== null && status >= 200 && status <= 299;
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
