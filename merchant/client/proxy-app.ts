/**
 * The validating proxy's exchange handling: each request of the application is forwarded unchanged
 * to the upstream service and its answer relayed unchanged (status, headers, body; a connection
 * the upstream drops is dropped), within bounds: MAX_REQUEST_BODY, MAX_RESPONSE_BODY and a deadline
 * per exchange. Every exchange is recorded for the client rules as it settles (proxy-traffic.ts);
 * after its answer is relayed, off the relay's path (judge-queue.ts: batched, bounded, an overflow
 * counted), the answer is judged by the ambient response rules (core/ambient.ts) unless it is a
 * 502/503/504 (a blip the client guidance handles, never judged), and the exchange is appended to
 * traffic.har. An exchange the upstream itself failed (no answer, or a 5xx without the API's error
 * envelope) is marked `upstreamFailure`: the client rules never judge the application on it.
 */
import type http from 'node:http';
import type { Socket } from 'node:net';
import { Agent, type Dispatcher } from '../../core/undici.ts';
import type { RuleId } from '../../catalogue/index.ts';
import { checkExchange } from '../../core/ambient.ts';
import { livemodeOfKey } from '../../core/api-key.ts';
import type { ApiResponse } from '../../core/client.ts';
import { fingerprint } from '../../core/redact.ts';
import { classify } from './chaos-server.ts';
import type { HarExchange } from './har.ts';
import { JudgeQueue, type QueueBound } from './judge-queue.ts';
import { readBody } from '../../core/loopback-server.ts';
import { letPreviousSettle } from './identity.ts';
import type { ProxyTraffic } from './proxy-traffic.ts';
import type { RecordedRequest } from './recorder.ts';
import type { Injection } from './schedule.ts';

export const PROXY_BOUNDS = { requestBodyBytes: 1024 * 1024, responseBodyBytes: 8 * 1024 * 1024, upstreamTimeoutMs: 30_000 } as const;
const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'proxy-connection',
  'upgrade',
  'te',
  'trailer',
]);
const EVIDENCE_BODY = 2048;
const MAX_REQUEST_IDS = 100_000;
/** Clients (API keys) whose fingerprint is remembered, not hashed again at each request; then forgotten all at once. */
const MAX_FINGERPRINTS = 1000;

interface Upstream {
  status: number;
  headers: Record<string, string>;
  /** The answer's bytes, relayed as they came, and as text for the judging. */
  bytes: Buffer;
  body: string;
}

interface UpstreamUrl {
  origin: string;
  prefix: string;
}

/** Where traffic.har goes: an exchange at a time, written many at a time (flushSoon: within a moment). */
export interface HarSink {
  add(ex: HarExchange): void;
  flushSoon(): void;
}

/** What the judging off the relay's path needs of one exchange. */
interface Queued {
  rec: RecordedRequest;
  har: HarExchange;
  /** The answer to judge by the response rules (absent: none, or a 502/503/504), its JSON when already parsed. */
  judge?: { up: Upstream; json: any; keyLivemode: boolean | undefined };
}

export class ProxyApp {
  private seq = 0;
  private readonly started = performance.now();
  /** request_ids of error answers seen (RESP-REQUEST-ID-UNIQUE), forgotten every MAX_REQUEST_IDS: bounded for a day of traffic. */
  private seenRequestIds = new Set<string>();

  private readonly fingerprints = new Map<string, string>();
  /** The exchanges waiting to be judged and written, off the relay's path. */
  readonly queue: JudgeQueue<Queued>;

  private to: UpstreamUrl = { origin: '', prefix: '' };
  /** The proxy's own connections to the upstream (undici's, of this package's version: whatever the process's global one is). */
  private readonly agent = new Agent();

  /** Where requests are relayed (the service's base URL, its path a prefix of every request's); set before the first request. */
  set upstream(url: string) {
    const u = new URL(url);
    this.to = { origin: u.origin, prefix: u.pathname.replace(/\/+$/, '') };
  }

  constructor(readonly traffic: ProxyTraffic, private readonly har: HarSink, private readonly origin: () => string, bound?: QueueBound) {
    this.queue = new JudgeQueue((batch) => this.judgeBatch(batch), bound);
  }

  private readonly elapsed = () => Math.round(performance.now() - this.started);

  async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const startedAt = new Date();
    const arrivedMs = this.elapsed();
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const headers = forwardable(req.headers);
    const { text: body, over } = await readBody(req, PROXY_BOUNDS.requestBodyBytes);
    if (over) return void res.writeHead(
      413,
      { 'content-type': 'text/plain' },
    ).end(`hps-conformance proxy: request body over ${PROXY_BOUNDS.requestBodyBytes} bytes, not forwarded\n`);
    const client = this.clientOf(headers.authorization);
    const kind = classify(method, path);
    const key = headers['idempotency-key'];
    await letPreviousSettle({ method, path }, this.traffic.previousOf(client));
    const seq = ++this.seq;
    const rec: RecordedRequest = {
      seq,
      at: startedAt.toISOString(),
      arrivedMs,
      method,
      path,
      kind,
      identity: this.traffic.identify(client, { kind, method, path, key, seq }),
      idempotencyKey: key,
      body: clip(body),
    };
    this.traffic.arrived(client, rec);
    const up = await exchange(this.agent, res, this.to, path, method, headers, body);
    rec.answeredMs = this.elapsed();
    const closed = 'the client closed the connection before the answer';
    let judge: Queued['judge'];
    if (up === 'closed') this.noAnswer(req, rec, { error: closed, timedOut: true }, true);
    else if ('error' in up) this.noAnswer(req, rec, up, false);
    else judge = relay(res, rec, up, livemodeOfKey(/^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '')?.[1]));
    this.traffic.settled(client, rec);
    const answer = up === 'closed' || 'error' in up ? { error: up === 'closed' ? closed : up.error } : { response: up };
    const har: HarExchange = {
      startedAt,
      durationMs: rec.answeredMs - arrivedMs,
      method,
      url: `${this.origin()}${path}`,
      requestHeaders: headers,
      requestBody: body,
      ...answer,
    };
    // What waits holds the request's text and the answer's bytes and text.
    this.queue.push({ rec, har, ...(judge ? { judge } : {}) }, body.length + (answer.response ? 2 * answer.response.bytes.length : 0));
  }

  /** Closes the connections to the upstream (an exchange still in flight is dropped). */
  close(): Promise<void> {
    return this.agent.destroy();
  }

  /** A client's name (its key's fingerprint), remembered for the next request with the same key. */
  private clientOf(authorization: string | undefined): string {
    if (authorization === undefined) return 'client (no key)';
    let name = this.fingerprints.get(authorization);
    if (name === undefined) {
      if (this.fingerprints.size >= MAX_FINGERPRINTS) this.fingerprints.clear();
      this.fingerprints.set(authorization, (name = clientOf(authorization)));
    }
    return name;
  }

  /** No answer to relay: the upstream's failure (or its silence until the client gave up), never judged against the client. */
  private noAnswer(req: http.IncomingMessage, rec: RecordedRequest, up: { error: string; timedOut: boolean }, clientGaveUp: boolean): void {
    rec.upstreamFailure = clientGaveUp ? `no answer from the upstream yet when the client closed its connection after ` +
      `${rec.answeredMs! - rec.arrivedMs} ms` : `no answer from the upstream (${up.error})`;
    const s = req.socket as Socket & { resetAndDestroy?: () => void };
    if (s.resetAndDestroy) s.resetAndDestroy();
    else s.destroy();
  }

  /** Off the relay's path, a batch in arrival order: the response rules on each answer, then traffic.har (written soon). */
  private judgeBatch(batch: readonly Queued[]): void {
    for (const q of batch) {
      const j = q.judge;
      if (j) this.judgeAnswer(q.rec, j.up, j.json === undefined ? parse(j.up.body) : j.json, j.keyLivemode);
      this.har.add(q.har);
    }
    this.har.flushSoon();
  }

  /** The ambient response rules on one answer (core/ambient.ts), tallied per rule. */
  private judgeAnswer(rec: RecordedRequest, up: Upstream, json: any, keyLivemode: boolean | undefined): void {
    const headers: Record<string, string> = rec.idempotencyKey !== undefined ? { 'idempotency-key': rec.idempotencyKey } : {};
    const exchange = {
      seq: rec.seq,
      at: rec.at,
      durationMs: rec.answeredMs! - rec.arrivedMs,
      request: { method: rec.method, path: rec.path, headers, ...(rec.body ? { body: rec.body } : {}) },
      response: { status: up.status, headers: up.headers, body: clip(up.body) },
    };
    const res: ApiResponse = { status: up.status, headers: up.headers, text: up.body, json, exchange };
    if (this.seenRequestIds.size >= MAX_REQUEST_IDS) this.seenRequestIds = new Set();
    const input = { method: rec.method, path: rec.path, keyLivemode, idempotent: rec.idempotencyKey !== undefined };
    for (const f of checkExchange(
      input,
      res,
      this.seenRequestIds,
      (rule: RuleId) => this.traffic.ambient(rule),
    )) this.traffic.ambient(f.rule as RuleId, f);
  }
}

/**
 * Relays the answer at once, and records what the client rules need of it; returns what the response rules will judge
 * (none on a 502, 503 or 504). `keyLivemode` is what the caller's key prefix says (undefined: livemode not judged). The
 * answer's JSON is parsed here only when the record needs it (an error's code, a created Payment's id); else when judged.
 */
function relay(res: http.ServerResponse, rec: RecordedRequest, up: Upstream, keyLivemode: boolean | undefined): Queued['judge'] {
  res.writeHead(up.status, up.headers);
  res.end(up.bytes);
  rec.status = up.status;
  rec.upstreamStatus = up.status;
  rec.answerBody = clip(up.body);
  const json = up.status >= 400 || (rec.kind === 'create' && up.status === 201) ? parse(up.body) : undefined;
  rec.errorCode = typeof json?.error?.code === 'string' ? json.error.code : undefined;
  if (rec.kind === 'create' && up.status === 201 && typeof json?.id === 'string') rec.paymentId = json.id;
  const failure = failureOf(up.status, rec.errorCode);
  if (up.status >= 500 && rec.errorCode === undefined) rec.upstreamFailure = `answered ${up.status} without the API's error envelope ` +
    `(${up.headers['content-type'] ?? 'no content type'})`;
  else if (failure) Object.assign(
    rec,
    { injected: failure, source: 'service' },
    failure === '429' ? { retryAfterS: retryAfterOf(up.headers['retry-after']) } : {},
  );
  if (up.status === 502 || up.status === 503 || up.status === 504) return undefined;
  return { up, json, keyLivemode };
}

/** A client is an API key (by fingerprint: the key itself is never kept). */
function clientOf(authorization: string | undefined): string {
  return authorization ? `client ${fingerprint(authorization)}` : 'client (no key)';
}

function forwardable(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

type Answer = Upstream | { error: string; timedOut: boolean };

/**
 * Forwards the request to the upstream and collects its answer (at most MAX_RESPONSE_BODY), within the exchange's
 * deadline; 'closed' when the application closed its connection before the answer (it gave up: the upstream's request
 * is aborted). On undici's dispatcher directly: no URL parsed, no stream, no abort signal per exchange.
 */
function exchange(
  agent: Dispatcher,
  res: http.ServerResponse,
  to: UpstreamUrl,
  path: string,
  method: string,
  headers: Record<string, string>,
  body: string,
): Promise<Answer | 'closed'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let status = 0;
    let answerHeaders: Record<string, string> = {};
    let controller: { abort(reason: Error): void } | undefined;
    let done = false;
    const finish = (v: Answer | 'closed', abort?: Error): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      res.off('close', onClose);
      if (abort) controller?.abort(abort);
      resolve(v);
    };
    const onClose = (): void => void (res.writableFinished || finish('closed', new Error('the client closed its connection')));
    res.once('close', onClose);
    // The same TimeoutError AbortSignal.timeout gives.
    const timeout = () => new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    const timer = setTimeout(() => finish(failure(timeout()), timeout()), PROXY_BOUNDS.upstreamTimeoutMs);
    const handler = {
      onRequestStart: (c: { abort(reason: Error): void }) => (done ? c.abort(new Error('the exchange ended')) : void (controller = c)),
      onResponseStart: (_c: unknown, statusCode: number, h: Record<string, string | string[] | undefined>) => {
        status = statusCode;
        answerHeaders = forwardable(h);
      },
      onResponseData: (_c: unknown, chunk: Buffer) => {
        size += chunk.length;
        if (size <= PROXY_BOUNDS.responseBodyBytes) return void chunks.push(chunk);
        const error = `the answer exceeded ${PROXY_BOUNDS.responseBodyBytes} bytes (not relayed)`;
        finish({ error, timedOut: false }, new Error(error));
      },
      onResponseEnd: () => {
        const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
        finish({ status, headers: answerHeaders, bytes, body: bytes.toString('utf8') });
      },
      onResponseError: (_c: unknown, e: Error) => finish(failure(e)),
    };
    const opts = { origin: to.origin, path: `${to.prefix}${path}`, method: method as 'GET', headers, body: body.length ? body : undefined,
      headersTimeout: PROXY_BOUNDS.upstreamTimeoutMs, bodyTimeout: PROXY_BOUNDS.upstreamTimeoutMs };
    try {
      agent.dispatch(opts, handler);
    } catch (e) {
      finish(failure(e as Error));
    }
  });
}

function failure(e: Error): { error: string; timedOut: boolean } {
  const err = e as Error & { code?: string };
  const timedOut = err.name === 'TimeoutError' || /Timeout/i.test(err.code ?? '');
  return { error: `${err.code ?? err.name}: ${err.message}`.slice(0, 300), timedOut };
}

/** The failure the guidance speaks of, in the answer: a 429, a 500/502/503/504, a 409 idempotency_in_progress. */
function failureOf(status: number, code: string | undefined): Injection | undefined {
  if (status === 429) return '429';
  if (status === 409 && code === 'idempotency_in_progress') return '409-in-progress';
  return status === 500 || status === 502 || status === 503 || status === 504 ? (String(status) as Injection) : undefined;
}

function retryAfterOf(v: string | undefined): number | undefined {
  return v !== undefined && /^\d+$/.test(v.trim()) ? Number(v.trim()) : undefined;
}

function parse(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function clip(s: string): string {
  return s.length > EVIDENCE_BODY ? `${s.slice(0, EVIDENCE_BODY)}…` : s;
}
