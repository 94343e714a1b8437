/**
 * The validating proxy's exchange handling: each request of the application is forwarded unchanged
 * to the upstream service and its answer relayed unchanged (status, headers, body; a connection
 * the upstream drops is dropped), within bounds: MAX_REQUEST_BODY, MAX_RESPONSE_BODY and a deadline
 * per exchange. Every exchange is recorded for the client rules (proxy-traffic.ts), its answer is
 * judged by the ambient response rules (core/ambient.ts) unless it is a 502/503/504 (a blip the
 * client guidance handles, never judged), and it is appended to traffic.har. An exchange the
 * upstream itself failed (no answer, or a 5xx without the API's error envelope) is marked
 * `upstreamFailure`: the client rules never judge the application on it.
 */
import type http from 'node:http';
import type { Socket } from 'node:net';
import { request } from 'undici';
import type { RuleId } from '../../catalogue/index.ts';
import { checkExchange } from '../../core/ambient.ts';
import { livemodeOfKey } from '../../core/api-key.ts';
import type { ApiResponse } from '../../core/client.ts';
import { fingerprint } from '../../core/redact.ts';
import { classify } from './chaos-server.ts';
import type { HarExchange } from './har.ts';
import { readBody } from '../../core/loopback-server.ts';
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

interface Upstream {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export class ProxyApp {
  private seq = 0;
  private readonly started = performance.now();
  /** request_ids of error answers seen (RESP-REQUEST-ID-UNIQUE), forgotten every MAX_REQUEST_IDS: bounded for a day of traffic. */
  private seenRequestIds = new Set<string>();

  /** Where requests are relayed (the service's base URL); set before the first request. */
  upstream = '';

  constructor(readonly traffic: ProxyTraffic, private readonly har: (ex: HarExchange) => void, private readonly origin: () => string) {}

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
    const client = clientOf(headers.authorization);
    const kind = classify(method, path);
    const key = headers['idempotency-key'];
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
    const abort = new AbortController();
    const up = await Promise.race([forward(`${this.upstream}${path}`, method, headers, body, abort.signal), clientClosed(res)]);
    rec.answeredMs = this.elapsed();
    if (up === 'closed') abort.abort();
    if (up === 'closed' || 'error' in up) this.noAnswer(
      req,
      rec,
      up === 'closed' ? { error: 'the client closed the connection before the answer', timedOut: true } : up,
      up === 'closed',
    );
    else this.relay(res, rec, up, livemodeOfKey(/^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '')?.[1]));
    this.traffic.settled(client, rec);
    const answer = up === 'closed' || 'error' in up ? { error: up === 'closed' ? 'the client closed the connection before the ' +
      'answer' : up.error } : { response: up };
    this.har({
      startedAt,
      durationMs: rec.answeredMs - arrivedMs,
      method,
      url: `${this.origin()}${path}`,
      requestHeaders: headers,
      requestBody: body,
      ...answer,
    });
  }

  /** Relays the answer; `keyLivemode` is what the caller's key prefix says (undefined: livemode not judged). */
  private relay(res: http.ServerResponse, rec: RecordedRequest, up: Upstream, keyLivemode: boolean | undefined): void {
    res.writeHead(up.status, up.headers);
    res.end(up.body);
    rec.status = up.status;
    rec.upstreamStatus = up.status;
    rec.answerBody = clip(up.body);
    const json = parse(up.body);
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
    if (up.status === 502 || up.status === 503 || up.status === 504) return;
    this.judgeAnswer(rec, up, json, keyLivemode);
  }

  /** No answer to relay: the upstream's failure (or its silence until the client gave up), never judged against the client. */
  private noAnswer(req: http.IncomingMessage, rec: RecordedRequest, up: { error: string; timedOut: boolean }, clientGaveUp: boolean): void {
    rec.upstreamFailure = clientGaveUp ? `no answer from the upstream yet when the client closed its connection after ` +
      `${rec.answeredMs! - rec.arrivedMs} ms` : `no answer from the upstream (${up.error})`;
    const s = req.socket as Socket & { resetAndDestroy?: () => void };
    if (s.resetAndDestroy) s.resetAndDestroy();
    else s.destroy();
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

/** A client is an API key (by fingerprint: the key itself is never kept). */
function clientOf(authorization: string | undefined): string {
  return authorization ? `client ${fingerprint(authorization)}` : 'client (no key)';
}

function forwardable(h: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** Resolves when the application closes its connection before the answer is relayed (it gave up). */
function clientClosed(res: http.ServerResponse): Promise<'closed'> {
  return new Promise((resolve) => {
    res.once('close', () => {
      if (!res.writableFinished) resolve('closed');
    });
  });
}

async function forward(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string,
  abort: AbortSignal,
): Promise<Upstream | { error: string; timedOut: boolean }> {
  try {
    const res = await request(
      url,
      {
        method: method as 'GET',
        headers,
        body: body.length ? body : undefined,
        signal: AbortSignal.any([abort, AbortSignal.timeout(PROXY_BOUNDS.upstreamTimeoutMs)]),
        headersTimeout: PROXY_BOUNDS.upstreamTimeoutMs,
        bodyTimeout: PROXY_BOUNDS.upstreamTimeoutMs,
      },
    );
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of res.body as AsyncIterable<Buffer>) {
      size += c.length;
      if (size > PROXY_BOUNDS.responseBodyBytes) {
        res.body.destroy();
        return { error: `the answer exceeded ${PROXY_BOUNDS.responseBodyBytes} bytes (not relayed)`, timedOut: false };
      }
      chunks.push(c);
    }
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = Array.isArray(v) ? v.join(', ') : v;
    return { status: res.statusCode, headers: out, body: Buffer.concat(chunks).toString('utf8') };
  } catch (e) {
    const err = e as Error & { code?: string };
    const timedOut = err.name === 'TimeoutError' || /Timeout/i.test(err.code ?? '');
    return { error: `${err.code ?? err.name}: ${err.message}`.slice(0, 300), timedOut };
  }
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
