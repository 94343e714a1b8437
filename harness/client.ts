/**
 * The suite's HTTP client, on undici: one keep-alive pool per origin, a
 * time-out on every request, no redirect ever followed (undici's request()
 * follows none unless an interceptor is added), and a redacted transcript of
 * every exchange kept as evidence.
 */
import { Pool } from 'undici';
import { circuitOpen, recordAnswer, recordNoAnswer } from './circuit.ts';
import { redactHeaders, redactText } from './redact.ts';

export interface Exchange {
  seq: number;
  at: string;
  durationMs: number;
  request: { method: string; path: string; headers: Record<string, string>; body?: string };
  response?: { status: number; headers: Record<string, string>; body: string };
  /** Transport trouble (refused, reset, time-out): never a conformance verdict by itself. */
  transportError?: string;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  json: any;
  exchange: Exchange;
}

export interface RequestOptions {
  method: string;
  /** Path below base_url, e.g. `/v1/payments?limit=5` (sent byte for byte). */
  path: string;
  /** API key for `Authorization: Bearer <key>`; null sends no Authorization header. */
  key?: string | null;
  /** Raw Authorization header value, overriding `key` (for malformed-header probes). */
  authorization?: string;
  headers?: Record<string, string>;
  /** JSON-serialised body (sets Content-Type: application/json unless given). */
  json?: unknown;
  /** Raw body bytes/text, sent as is. */
  raw?: string | Buffer;
  idempotencyKey?: string;
  timeoutMs?: number;
  /**
   * Set by a probe that deliberately steps outside ordinary HTTP (an oversized
   * header, a method the API never binds, a fragment on the wire): why. Its
   * answer may come from whatever stands in front of the service, so it is
   * observed, never judged by the ambient rules about API answers.
   */
  outsideHttp?: string;
}

export class TransportError extends Error {
  readonly code: 'HPS_ERR_TARGET_UNREACHABLE' | 'HPS_ERR_TARGET_TIMEOUT';
  constructor(code: TransportError['code'], message: string) {
    super(message);
    this.name = 'TransportError';
    this.code = code;
  }
}

const MAX_EVIDENCE_BODY = 4096;
const pools = new Map<string, Pool>();

function poolFor(origin: string): Pool {
  let p = pools.get(origin);
  if (!p) {
    p = new Pool(origin, { connections: 32, keepAliveTimeout: 10_000, pipelining: 1 });
    pools.set(origin, p);
  }
  return p;
}

/** Closes every pool (end of a worker or a CLI run). */
export async function closeAllPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.close().catch(() => undefined)));
}

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function clip(s: string): string {
  return s.length > MAX_EVIDENCE_BODY ? `${s.slice(0, MAX_EVIDENCE_BODY)}… (${s.length} chars)` : s;
}

export interface ClientOptions {
  baseUrl: string;
  timeoutMs?: number;
  /** Secrets to redact from free text besides key-shaped strings (control token). */
  secrets?: readonly string[];
  /** Called with every finished exchange (ambient checks, transcripts). */
  onExchange?: (ex: Exchange, res: ApiResponse | undefined, req: RequestOptions) => void;
}

let seqCounter = 0;

export class Client {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  private readonly origin: string;
  private readonly prefix: string;
  private readonly secrets: readonly string[];
  private readonly onExchange: ClientOptions['onExchange'];
  readonly transcript: Exchange[] = [];

  constructor(opts: ClientOptions) {
    const u = new URL(opts.baseUrl);
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.origin = u.origin;
    this.prefix = u.pathname.replace(/\/+$/, '');
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.secrets = opts.secrets ?? [];
    this.onExchange = opts.onExchange;
  }

  async request(o: RequestOptions): Promise<ApiResponse> {
    const headers: Record<string, string> = { accept: 'application/json', ...(o.headers ?? {}) };
    if (o.authorization !== undefined) headers.authorization = o.authorization;
    else if (o.key) headers.authorization = `Bearer ${o.key}`;
    if (o.idempotencyKey !== undefined) headers['idempotency-key'] = o.idempotencyKey;
    let body: string | Buffer | undefined;
    if (o.raw !== undefined) body = o.raw;
    else if (o.json !== undefined) {
      body = JSON.stringify(o.json);
      if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    }
    const exchange: Exchange = {
      seq: ++seqCounter,
      at: new Date().toISOString(),
      durationMs: 0,
      request: {
        method: o.method,
        path: o.path,
        headers: redactHeaders(headers, this.secrets),
        ...(body !== undefined ? { body: redactText(clip(body.toString()), this.secrets) } : {}),
      },
    };
    const started = performance.now();
    const timeout = o.timeoutMs ?? this.timeoutMs;
    const open = o.outsideHttp ? undefined : circuitOpen(this.origin);
    if (open) {
      exchange.transportError = open;
      this.record(exchange, undefined, o);
      throw new TransportError('HPS_ERR_TARGET_UNREACHABLE', `${o.method} ${o.path}: not sent, ${open}`);
    }
    try {
      const res = await poolFor(this.origin).request({
        method: o.method as 'GET',
        path: this.prefix + o.path,
        headers,
        body,
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
      const text = await res.body.text();
      exchange.durationMs = Math.round(performance.now() - started);
      const rh = flatHeaders(res.headers as Record<string, string | string[] | undefined>);
      exchange.response = { status: res.statusCode, headers: redactHeaders(rh, this.secrets), body: redactText(clip(text), this.secrets) };
      let json: unknown;
      if (text.length) {
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
      }
      const out: ApiResponse = { status: res.statusCode, headers: rh, text, json, exchange };
      if (!o.outsideHttp) recordAnswer(this.origin);
      this.record(exchange, out, o);
      return out;
    } catch (e) {
      exchange.durationMs = Math.round(performance.now() - started);
      const err = e as Error & { code?: string };
      // undici refusing our own request (a header it will not send) is a suite bug, not target trouble.
      if (err.code === 'UND_ERR_INVALID_ARG' || err.code === 'ERR_INVALID_CHAR' || err.code === 'ERR_INVALID_ARG_TYPE') throw err;
      const timedOut = err.code === 'UND_ERR_HEADERS_TIMEOUT' || err.code === 'UND_ERR_BODY_TIMEOUT';
      exchange.transportError = `${err.code ?? err.name}: ${redactText(err.message, this.secrets)}`;
      if (!o.outsideHttp) recordNoAnswer(this.origin);
      this.record(exchange, undefined, o);
      throw new TransportError(
        timedOut ? 'HPS_ERR_TARGET_TIMEOUT' : 'HPS_ERR_TARGET_UNREACHABLE',
        timedOut
          ? `${o.method} ${o.path}: no answer within ${timeout} ms`
          : `${o.method} ${o.path}: ${this.origin} could not be reached (${err.code ?? err.message})`,
      );
    }
  }

  private record(ex: Exchange, res: ApiResponse | undefined, req: RequestOptions): void {
    this.transcript.push(ex);
    if (this.transcript.length > 200) this.transcript.shift();
    this.onExchange?.(ex, res, req);
  }

  // ── The six operations of v1 ──
  createPayment(key: string | null, body: unknown, opts: { idempotencyKey?: string; headers?: Record<string, string> } = {}) {
    return this.request({ method: 'POST', path: '/v1/payments', key, json: body, ...opts });
  }
  listPayments(key: string | null, query: Record<string, string | number | undefined> = {}) {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) qs.append(k, String(v));
    const s = qs.toString();
    return this.request({ method: 'GET', path: `/v1/payments${s ? `?${s}` : ''}`, key });
  }
  getPayment(key: string | null, id: string) {
    return this.request({ method: 'GET', path: `/v1/payments/${encodeURIComponent(id)}`, key });
  }
  cancelPayment(key: string | null, id: string) {
    return this.request({ method: 'POST', path: `/v1/payments/${encodeURIComponent(id)}/cancel`, key });
  }
  simulateSucceeded(key: string | null, id: string) {
    return this.request({ method: 'POST', path: `/v1/test_helpers/payments/${encodeURIComponent(id)}/succeed`, key });
  }
  simulateCancelled(key: string | null, id: string) {
    return this.request({ method: 'POST', path: `/v1/test_helpers/payments/${encodeURIComponent(id)}/cancel`, key });
  }
}
