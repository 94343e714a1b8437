/**
 * The chaos server: a proxy in front of the reference server that answers the client under test
 * with the seeded failures of schedule.ts and records every request. Its /_hooks path swallows
 * the reference server's own webhook deliveries (the client command certifies no receiver).
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { request } from '../../core/undici.ts';
import { MAX_RECORDED, type RecordedRequest } from './recorder.ts';
import { letPreviousSettle, operationIdentity } from './identity.ts';
import { listenLoopback, readBody } from '../../core/loopback-server.ts';
import { FailureSchedule, TIMEOUT_HOLD_MS, type OperationKind, type PlannedFailure } from './schedule.ts';

const MAX_BODY_BYTES = 1024 * 1024;
const UPSTREAM_TIMEOUT_MS = 10_000;
const MAX_EVIDENCE_BODY = 2048;
export const HOOKS_PATH = '/_hooks';

export interface ChaosServer {
  url: string;
  log: RecordedRequest[];
  schedule: FailureSchedule;
  /** Where requests are forwarded; set once the reference server is up. */
  setUpstream(url: string): void;
  close(): Promise<void>;
}

export function classify(method: string, path: string): OperationKind {
  const p = path.split('?')[0]!;
  if (method === 'POST' && p === '/v1/payments') return 'create';
  if (method === 'POST' && /^\/v1\/payments\/[^/]+\/cancel$/.test(p)) return 'cancel';
  if (method === 'GET' && /^\/v1\/payments(\/[^/]+)?$/.test(p)) return 'read';
  return 'other';
}

/** The chaos proxy's request handling and state, apart from listening. */
export class ChaosApp {
  readonly schedule: FailureSchedule;
  readonly log: RecordedRequest[] = [];
  private readonly seen = new Set<string>();
  /** The client's previous request (any kind): a read or cancel is a retry only of the request right before it. */
  private previous: RecordedRequest | undefined;
  private readonly started = performance.now();
  /** Where requests are forwarded; set once the reference server is up. */
  upstream = '';

  constructor(seed: number) {
    this.schedule = new FailureSchedule(seed);
  }

  private readonly elapsed = () => Math.round(performance.now() - this.started);

  /** The logical operation a request belongs to (identity.ts: from the wire alone, never from time). */
  identityOf(kind: OperationKind, method: string, path: string, key: string | undefined, seq: number): string {
    return operationIdentity({ kind, method, path, key, seq }, this.previous);
  }

  async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const arrivedMs = this.elapsed();
    const { text: body } = await readBody(req, MAX_BODY_BYTES);
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    if (path.startsWith(HOOKS_PATH)) return void res.writeHead(200).end();
    const kind = classify(method, path);
    const header = req.headers['idempotency-key'];
    const key = typeof header === 'string' ? header : undefined;
    await letPreviousSettle({ method, path }, this.previous);
    const seq = this.log.length + 1;
    const identity = this.identityOf(kind, method, path, key, seq);
    const fresh = !this.seen.has(identity);
    this.seen.add(identity);
    const recording = this.log.length < MAX_RECORDED;
    const planned = fresh && recording ? this.schedule.next(kind) : undefined;
    const injected = planned?.injection;
    const rec: RecordedRequest = {
      seq,
      at: new Date().toISOString(),
      arrivedMs,
      method,
      path,
      kind,
      identity,
      idempotencyKey: key,
      body: clip(body),
      injected,
      ...(planned?.retryAfterS ? { retryAfterS: planned.retryAfterS } : {}),
    };
    if (recording) this.log.push(rec);
    this.previous = rec;
    if (injected === 'reset-before') return drop(req, rec, this.elapsed);
    if (injected && injected !== 'reset-after-create' && injected !== 'timeout') return answerInjected(res, rec, planned!, this.elapsed);
    const up = await forward(this.upstream, req, method, path, body);
    rec.upstreamStatus = up.status;
    rec.paymentId = kind === 'create' && up.status === 201 ? paymentIdOf(up.body) : undefined;
    if (injected === 'reset-after-create') return drop(req, rec, this.elapsed);
    if (injected === 'timeout') return hold(req, res, rec, this.elapsed);
    res.writeHead(up.status, up.headers);
    rec.answeredMs = this.elapsed();
    res.end(up.body);
    rec.status = up.status;
    rec.errorCode = errorCodeOf(up.body);
    rec.answerBody = clip(up.body);
  }
}

export async function startChaosServer(seed: number): Promise<ChaosServer> {
  const app = new ChaosApp(seed);
  const server = await listenLoopback((req, res) => app.handle(req, res));
  return {
    url: server.url,
    log: app.log,
    schedule: app.schedule,
    setUpstream: (u) => {
      app.upstream = u;
    },
    close: () => server.close(),
  };
}

function drop(req: http.IncomingMessage, rec: RecordedRequest, elapsed: () => number): void {
  rec.answeredMs = elapsed();
  const s = req.socket as Socket & { resetAndDestroy?: () => void };
  if (s.resetAndDestroy) s.resetAndDestroy();
  else s.destroy();
}

/** An injected time-out: no answer; the connection is dropped when the hold ends, unless the client gave up first. */
function hold(req: http.IncomingMessage, res: http.ServerResponse, rec: RecordedRequest, elapsed: () => number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      res.off('close', gaveUp);
      drop(req, rec, elapsed);
      resolve();
    }, TIMEOUT_HOLD_MS);
    const gaveUp = () => {
      clearTimeout(timer);
      rec.answeredMs = elapsed();
      rec.clientGaveUpAfterMs = rec.answeredMs - rec.arrivedMs;
      resolve();
    };
    res.once('close', gaveUp);
  });
}

function answerInjected(res: http.ServerResponse, rec: RecordedRequest, planned: PlannedFailure, elapsed: () => number): void {
  const [status, code, extra] = ({
    '429': [429, 'rate_limit_exceeded', { 'retry-after': String(planned.retryAfterS ?? 2) }],
    '500': [500, 'internal_error', {}],
    '502': [502, 'bad_gateway', {}],
    '503': [503, 'service_unavailable', {}],
    '504': [504, 'gateway_timeout', {}],
    '409-in-progress': [409, 'idempotency_in_progress', {}],
    '400': [400, 'invalid_request', {}],
  } as const)[planned.injection as '429'];
  const body = JSON.stringify({ error: { code, message: `chaos: injected ${status}`, request_id: `req_chaos${rec.seq}` } });
  res.writeHead(status, { 'content-type': 'application/json', ...extra });
  // Taken before the write: the client cannot have the answer earlier, so a wait measured from here is never overstated.
  rec.answeredMs = elapsed();
  res.end(body);
  rec.status = status;
  rec.errorCode = code;
  rec.answerBody = body;
}

async function forward(upstream: string, req: http.IncomingMessage, method: string, path: string, body: string) {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined || ['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive'].includes(k)) continue;
    headers[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  try {
    const res = await request(
      `${upstream}${path}`,
      { method: method as 'GET', headers, body: body.length ? body : undefined, signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS) },
    );
    const text = await res.body.text();
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && ![
      'connection',
      'keep-alive',
      'transfer-encoding',
      'content-length',
    ].includes(k)) out[k] = Array.isArray(v) ? v.join(', ') : v;
    return { status: res.statusCode, headers: out, body: text };
  } catch (e) {
    return {
      status: 502,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error: { code: 'chaos_upstream', message: (e as Error).message, request_id: 'req_chaos' } }),
    };
  }
}

function paymentIdOf(text: string): string | undefined {
  try {
    const v = JSON.parse(text) as { id?: unknown };
    return typeof v.id === 'string' ? v.id : undefined;
  } catch {
    return undefined;
  }
}

function errorCodeOf(text: string): string | undefined {
  try {
    const v = JSON.parse(text) as { error?: { code?: unknown } };
    return typeof v.error?.code === 'string' ? v.error.code : undefined;
  } catch {
    return undefined;
  }
}

function clip(s: string): string {
  return s.length > MAX_EVIDENCE_BODY ? `${s.slice(0, MAX_EVIDENCE_BODY)}…` : s;
}
