/**
 * The webhook sink (docs/design.md "The webhook sink"): an HTTP server the target delivers events to.
 * For every request it records the raw bytes, headers and arrival time (appended to the log before
 * answering), verifies the signature with the endpoint's secret (spec "Signature"), and answers as the
 * Payment's `metadata.sink` marker asks (answer-plan.ts). It serves its records to suites under
 * `/_sink/` (query-api.ts). Whatever arrives, it answers or drops the connection; it never throws.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { parseAnswerPlan, plannedAnswer, type PlannedAnswer } from './answer-plan.ts';
import type { DeliveryFilter } from './delivery-filter.ts';
import { openDeliveryLog, type DeliveryLog } from './delivery-log.ts';
import { DeliveryStore, type WaitForOptions } from './delivery-store.ts';
import { readEventFields } from './event-fields.ts';
import { handleQueryRequest, QUERY_PREFIX } from './query-api.ts';
import { sendJson } from './send-json.ts';
import type {
  Delivery,
  DeliveryEvent,
  DeliveryProblem,
  EndpointSummary,
  HoldSettlement,
  RecordedAnswer,
  RedirectHit,
  RoutingProblem,
  SinkEndpoint,
  SinkStats,
} from './types.ts';
import { DEFAULT_TOLERANCE_SECONDS, verifySignature, type SignatureVerdict } from './verify-signature.ts';

export interface SinkOptions {
  /** "host:port" ("[::1]:0" for IPv6); port 0 picks a free port. */
  listen: string;
  endpoints: SinkEndpoint[];
  /** The JSONL log; created if absent, reloaded if present. */
  logFile: string;
  /** How the target reaches the sink (redirect Locations point there). Default: `url`. */
  publicUrl?: string;
  /** Largest body read, in bytes; larger ones are answered 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Deliveries kept (the log's included); past it requests are answered 503 and counted as dropped. Default 20 000. */
  maxDeliveries?: number;
  /** How long a `timeout:<N>` answer is held before a 200, in ms. Default 12 000 (past the spec's 10 s). */
  holdMs?: number;
  /** Signature timestamp tolerance in seconds; null or Infinity turns the check off. Default 300. */
  toleranceSeconds?: number | null;
  /** When set, the `/_sink/` query API requires `Authorization: Bearer <queryToken>`. */
  queryToken?: string;
  /** A request head must arrive within this many ms. Default 10 000. */
  headersTimeoutMs?: number;
  /** A whole request must arrive within this many ms. Default 30 000. */
  requestTimeoutMs?: number;
  /** fdatasync after every log line. Default true. */
  fsync?: boolean;
}

export interface RunningSink {
  /** Where this process reaches the sink, e.g. `http://127.0.0.1:40123`. */
  url: string;
  port: number;
  /** Where the target reaches the sink. */
  publicUrl: string;
  logFile: string;
  deliveries(filter?: DeliveryFilter): Delivery[];
  /** Resolves with every matching delivery once there are `count`; rejects with SinkWaitTimeoutError. */
  waitFor(filter: DeliveryFilter, options: WaitForOptions): Promise<Delivery[]>;
  redirectHits(): RedirectHit[];
  stats(): SinkStats;
  /** Stops listening and destroys open connections (held answers included); idempotent. */
  close(): Promise<void>;
}

/** Bad SinkOptions or a failed listen: harness trouble, not a conformance failure. */
export class SinkError extends Error {
  constructor(
    readonly code: 'SINK_BAD_OPTIONS' | 'SINK_LISTEN_FAILED',
    message: string,
  ) {
    super(message);
    this.name = 'SinkError';
  }
}

export const REDIRECT_TARGET_PREFIX = `${QUERY_PREFIX}/redirect-target/`;
const MAX_REDIRECT_HIT_BODY = 64 * 1024;
const OVERSIZE_DRAIN_MS = 2_000;

interface ResolvedOptions {
  host: string;
  port: number;
  endpoints: Map<string, SinkEndpoint>;
  logFile: string;
  publicUrl: string | undefined;
  maxBodyBytes: number;
  maxDeliveries: number;
  holdMs: number;
  toleranceSeconds: number | null;
  queryToken: string | undefined;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  fsync: boolean;
}

type BodyResult =
  | { kind: 'complete'; body: Buffer }
  | { kind: 'too_large'; size: number }
  | { kind: 'aborted'; body: Buffer };

interface RequestHead {
  receivedAt: number;
  method: string;
  url: string;
  path: string;
  httpVersion: string;
  peer: { address: string | null; port: number | null };
  headers: Record<string, string>;
  repeatedHeaders: string[];
}

/** Wall-clock ms with sub-ms precision. */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}

export async function startSink(options: SinkOptions): Promise<RunningSink> {
  const config = resolveOptions(options);
  const { log, loaded } = openDeliveryLog(config.logFile, { sync: config.fsync });
  const store = new DeliveryStore(loaded);
  const counters = { dropped: 0, clientErrors: 0 };
  const holds = new Set<() => void>(); // each settles one held answer as 'sink_closed'
  const timers = new Set<NodeJS.Timeout>();
  let publicUrl = '';
  let closing: Promise<void> | undefined;

  const stats = (): SinkStats => ({
    deliveries: store.size,
    dropped: counters.dropped,
    redirectHits: store.redirectHits().length,
    clientErrors: counters.clientErrors,
    skippedLogLines: loaded.skippedLines,
  });

  const appendQuietly = (line: Parameters<DeliveryLog['append']>[0]): void => {
    try {
      log.append(line);
    } catch {
      // The record stays in memory; nothing more can be done about a failing disk here.
    }
  };

  const server: Server = createServer(
    {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, config.headersTimeoutMs),
    },
    (req, res) => {
      try {
        onRequest(req, res);
      } catch {
        res.destroy();
      }
    },
  );

  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    counters.clientErrors++;
    const status =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? '431 Request Header Fields Too Large'
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? '408 Request Timeout'
          : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  });
  server.on('error', () => {
    // After listening, server errors concern single connections; they are handled per request.
  });

  function onRequest(req: IncomingMessage, res: ServerResponse): void {
    const receivedAt = nowMs();
    req.on('error', () => {});
    res.on('error', () => {});
    const head = readHead(req, receivedAt);

    if (head.path === QUERY_PREFIX || head.path.startsWith(`${QUERY_PREFIX}/`)) {
      if (head.path.startsWith(REDIRECT_TARGET_PREFIX)) {
        readBody(req, MAX_REDIRECT_HIT_BODY)
          .then((body) => onRedirectHit(head, body, res))
          .catch(() => res.destroy());
        return;
      }
      const query = new URLSearchParams(queryOf(head.url));
      handleQueryRequest(req, res, head.path, query, { store, stats, queryToken: config.queryToken });
      return;
    }

    if (store.size >= config.maxDeliveries) {
      counters.dropped++;
      req.resume();
      sendJson(res, 503, { error: 'sink_full' }, { connection: 'close' });
      return;
    }
    readBody(req, config.maxBodyBytes)
      .then((body) => onDelivery(req, res, head, body))
      .catch(() => res.destroy());
  }

  function onDelivery(req: IncomingMessage, res: ServerResponse, head: RequestHead, bodyResult: BodyResult): void {
    const seq = store.nextSeq();
    const endpoint = config.endpoints.get(head.path);
    const raw = bodyResult.kind === 'too_large' ? Buffer.alloc(0) : bodyResult.body;
    const complete = bodyResult.kind === 'complete';

    // What the body says, read whatever the path (a misrouted event is evidence too).
    let event: DeliveryEvent | null = null;
    let marker: unknown;
    let bodyProblem: DeliveryProblem | null = null;
    if (complete) {
      const fields = readEventFields(raw);
      if (fields.ok) {
        event = fields.event;
        marker = fields.marker;
      } else {
        bodyProblem = fields.problem;
      }
    }

    // Signature (spec "Signature" 1-2): the endpoint's secret over `<t>.` + the raw bytes.
    let signature: SignatureVerdict | null = null;
    let signedWithSecretOf: string | null = null;
    if (endpoint && complete) {
      const header = req.headers['service-signature'];
      signature = verifySignature({
        header: typeof header === 'string' ? header : undefined,
        rawBody: raw,
        secrets: [endpoint.secret],
        toleranceSeconds: config.toleranceSeconds,
      });
      if (signature.problem === 'no_matching_signature') signedWithSecretOf = secretOwner(header, raw, endpoint);
    }

    const attempt = event ? store.nextAttempt(head.path, event.id) : null;
    let planProblem: string | null = null;
    let planned: PlannedAnswer = { kind: 'status', status: 200 };
    const routingProblems: RoutingProblem[] = [];
    if (endpoint && event && attempt !== null) {
      const plan = parseAnswerPlan(marker);
      planProblem = plan.problem ?? null;
      planned = plannedAnswer(plan.plan, attempt);
      if (endpoint.enabled === false) routingProblems.push('endpoint_disabled');
      if (event.livemode !== endpoint.livemode) routingProblems.push('livemode_mismatch');
      if (endpoint.events !== '*' && !endpoint.events.includes(event.type ?? '')) {
        routingProblems.push('event_type_not_subscribed');
      }
    }

    // Rejections come first, in this order; a rejected request is answered 400 (413 when oversize),
    // as a receiver answers a signature failure (spec "Signature" 3).
    const problem: DeliveryProblem | null =
      bodyResult.kind === 'aborted'
        ? 'request_aborted'
        : bodyResult.kind === 'too_large'
          ? 'body_too_large'
          : !endpoint
            ? 'unknown_path'
            : head.method !== 'POST'
              ? 'method_not_post'
              : signature?.valid !== true
                ? 'bad_signature'
                : bodyProblem;

    let answer: RecordedAnswer =
      problem === 'request_aborted'
        ? { kind: 'none' }
        : problem === 'body_too_large'
          ? { kind: 'status', status: 413 }
          : problem !== null
            ? { kind: 'status', status: 400 }
            : recordedAnswer(planned);

    const delivery: Delivery = {
      seq,
      ...head,
      decidedAt: nowMs(),
      body: raw.toString('base64'),
      bodySha256: bodyResult.kind === 'too_large' ? null : sha256(raw),
      bodySize: bodyResult.kind === 'too_large' ? bodyResult.size : raw.length,
      bodyTruncated: bodyResult.kind === 'too_large',
      event,
      signature,
      signedWithSecretOf,
      endpoint: endpoint ? summary(endpoint) : null,
      routingProblems,
      attempt,
      planProblem,
      problem,
      answer,
    };

    // The record reaches the disk before the answer leaves.
    try {
      log.append({ line: 'delivery', delivery });
    } catch {
      delivery.problem = 'log_write_failed';
      delivery.answer = answer = { kind: 'status', status: 500 };
    }
    store.add(delivery);
    perform(req, res, delivery, answer);
  }

  function perform(req: IncomingMessage, res: ServerResponse, delivery: Delivery, answer: RecordedAnswer): void {
    const seqHeader = { 'x-sink-seq': delivery.seq };
    switch (answer.kind) {
      case 'none':
        res.destroy();
        return;
      case 'reset':
        resetSocket(req.socket);
        return;
      case 'redirect':
        sendJson(res, answer.status, { redirect: answer.location, seq: delivery.seq }, { ...seqHeader, location: answer.location });
        return;
      case 'timeout':
        hold(req, res, delivery, answer.holdMs);
        return;
      case 'status': {
        const headers: Record<string, string | number> = { ...seqHeader };
        if (answer.location) headers.location = answer.location;
        if (delivery.problem === 'body_too_large') headers.connection = 'close';
        const body =
          delivery.problem !== null
            ? { error: delivery.problem, seq: delivery.seq }
            : answer.status < 300
              ? { received: true, seq: delivery.seq }
              : { planned_failure: answer.status, seq: delivery.seq };
        sendJson(res, answer.status, body, headers);
        if (delivery.problem === 'body_too_large') drainThenDrop(req);
        return;
      }
    }
  }

  // `timeout:<N>`: say nothing for holdMs (past the target's 10 s time-out), then 200 if the
  // connection is still open. How it ended is appended to the log.
  function hold(req: IncomingMessage, res: ServerResponse, delivery: Delivery, holdMs: number): void {
    let done = false;
    const settle = (how: HoldSettlement['how']): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      holds.delete(onSinkClose);
      const at = nowMs();
      const settled: HoldSettlement = { how, at, afterMs: at - delivery.receivedAt };
      store.settle(delivery.seq, settled);
      appendQuietly({ line: 'settled', seq: delivery.seq, settled });
    };
    const onSinkClose = () => settle('sink_closed');
    const timer = setTimeout(() => {
      if (res.destroyed || req.socket.destroyed) return settle('peer_closed');
      settle('answered_after_hold');
      sendJson(res, 200, { received: true, seq: delivery.seq, heldMs: holdMs }, { 'x-sink-seq': delivery.seq });
    }, holdMs);
    holds.add(onSinkClose);
    res.on('close', () => {
      if (!res.writableFinished) settle('peer_closed');
    });
  }

  function onRedirectHit(head: RequestHead, bodyResult: BodyResult, res: ServerResponse): void {
    if (store.redirectHits().length >= config.maxDeliveries) {
      counters.dropped++;
      sendJson(res, 503, { error: 'sink_full' }, { connection: 'close' });
      return;
    }
    const raw = bodyResult.kind === 'too_large' ? Buffer.alloc(0) : bodyResult.body;
    const token = head.path.slice(REDIRECT_TARGET_PREFIX.length);
    const hit: RedirectHit = {
      n: store.nextHitNumber(),
      receivedAt: head.receivedAt,
      method: head.method,
      url: head.url,
      token,
      forSeq: store.seqOfToken(token),
      peer: head.peer,
      headers: head.headers,
      body: raw.toString('base64'),
      bodySha256: sha256(raw),
      bodySize: bodyResult.kind === 'too_large' ? bodyResult.size : raw.length,
    };
    appendQuietly({ line: 'redirect_hit', hit });
    store.addRedirectHit(hit);
    sendJson(res, 200, { recorded: true, n: hit.n }, bodyResult.kind === 'complete' ? {} : { connection: 'close' });
  }

  function recordedAnswer(planned: PlannedAnswer): RecordedAnswer {
    switch (planned.kind) {
      case 'status':
        if (planned.status >= 300 && planned.status < 400) {
          // A planned 3xx also points somewhere recorded: following it is detectable too.
          return { kind: 'status', status: planned.status, ...redirectTarget() };
        }
        return { kind: 'status', status: planned.status };
      case 'redirect':
        return { kind: 'redirect', status: 302, ...redirectTarget() };
      case 'timeout':
        return { kind: 'timeout', holdMs: config.holdMs };
      case 'reset':
        return { kind: 'reset' };
    }
  }

  function redirectTarget(): { location: string; redirectToken: string } {
    const redirectToken = randomBytes(12).toString('base64url');
    return { location: `${publicUrl}${REDIRECT_TARGET_PREFIX}${redirectToken}`, redirectToken };
  }

  /** The path of another endpoint whose secret the signature matches (wrong-secret evidence). */
  function secretOwner(header: string | string[] | undefined, raw: Buffer, endpoint: SinkEndpoint): string | null {
    if (typeof header !== 'string') return null;
    for (const other of config.endpoints.values()) {
      if (other === endpoint || other.secret === endpoint.secret) continue;
      const verdict = verifySignature({ header, rawBody: raw, secrets: [other.secret], toleranceSeconds: null });
      if (verdict.valid) return other.path;
    }
    return null;
  }

  function drainThenDrop(req: IncomingMessage): void {
    req.resume();
    const timer = setTimeout(() => {
      timers.delete(timer);
      req.socket.destroy();
    }, OVERSIZE_DRAIN_MS);
    timers.add(timer);
    req.socket.once('close', () => {
      clearTimeout(timer);
      timers.delete(timer);
    });
  }

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: config.host, port: config.port }, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    log.close();
    throw new SinkError('SINK_LISTEN_FAILED', `cannot listen on ${options.listen}: ${(error as Error).message}`);
  }

  const port = (server.address() as AddressInfo).port;
  const url = `http://${urlHost(config.host)}:${port}`;
  publicUrl = (config.publicUrl ?? url).replace(/\/+$/, '');
  appendQuietly({ line: 'start', at: nowMs(), pid: process.pid, endpoints: [...config.endpoints.values()].map(summary) });

  return {
    url,
    port,
    publicUrl,
    logFile: config.logFile,
    deliveries: (filter) => store.deliveries(filter),
    waitFor: (filter, waitOptions) => store.waitFor(filter, waitOptions),
    redirectHits: () => store.redirectHits(),
    stats,
    close() {
      closing ??= (async () => {
        for (const settleClosed of [...holds]) settleClosed();
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        store.rejectWaiters();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
        log.close();
      })();
      return closing;
    },
  };
}

function resolveOptions(options: SinkOptions): ResolvedOptions {
  const fail = (message: string): never => {
    throw new SinkError('SINK_BAD_OPTIONS', message);
  };
  const listen = /^(?:\[([^\]]+)\]|([^:[\]]+)):([0-9]{1,5})$/.exec(options.listen ?? '');
  if (!listen) fail(`listen must be "host:port", got ${JSON.stringify(options.listen)}`);
  const host = (listen?.[1] ?? listen?.[2]) as string;
  const port = Number(listen?.[3]);
  if (port > 65_535) fail(`listen port ${port} is over 65535`);
  if (typeof options.logFile !== 'string' || options.logFile === '') fail('logFile is required');
  if (!Array.isArray(options.endpoints)) fail('endpoints must be an array');

  const endpoints = new Map<string, SinkEndpoint>();
  for (const [i, endpoint] of options.endpoints.entries()) {
    const where = `endpoints[${i}]`;
    if (typeof endpoint?.path !== 'string' || !endpoint.path.startsWith('/') || /[?#\s]/.test(endpoint.path)) {
      fail(`${where}.path must be a path starting with "/" (no query, no spaces)`);
    }
    if (endpoint.path === QUERY_PREFIX || endpoint.path.startsWith(`${QUERY_PREFIX}/`)) {
      fail(`${where}.path must not be under ${QUERY_PREFIX}/ (the sink's own API)`);
    }
    if (endpoints.has(endpoint.path)) fail(`${where}.path ${endpoint.path} is listed twice`);
    if (typeof endpoint.secret !== 'string' || endpoint.secret === '') fail(`${where}.secret must be a non-empty string`);
    if (typeof endpoint.livemode !== 'boolean') fail(`${where}.livemode must be a boolean`);
    if (endpoint.events !== '*' && !(Array.isArray(endpoint.events) && endpoint.events.every((e) => typeof e === 'string'))) {
      fail(`${where}.events must be "*" or an array of event types`);
    }
    endpoints.set(endpoint.path, endpoint);
  }

  const positive = (name: keyof SinkOptions, value: number | undefined, fallback: number): number => {
    if (value === undefined) return fallback;
    if (!Number.isFinite(value) || value <= 0) fail(`${name} must be a positive number`);
    return value;
  };
  const tolerance = options.toleranceSeconds;
  if (tolerance !== undefined && tolerance !== null && !(tolerance >= 0)) fail('toleranceSeconds must be >= 0, null or Infinity');
  const headersTimeoutMs = positive('headersTimeoutMs', options.headersTimeoutMs, 10_000);
  const requestTimeoutMs = positive('requestTimeoutMs', options.requestTimeoutMs, 30_000);
  if (requestTimeoutMs < headersTimeoutMs) fail('requestTimeoutMs must be at least headersTimeoutMs');

  return {
    host,
    port,
    endpoints,
    logFile: options.logFile,
    publicUrl: options.publicUrl,
    maxBodyBytes: positive('maxBodyBytes', options.maxBodyBytes, 1024 * 1024),
    maxDeliveries: positive('maxDeliveries', options.maxDeliveries, 20_000),
    holdMs: positive('holdMs', options.holdMs, 12_000),
    toleranceSeconds: tolerance === undefined ? DEFAULT_TOLERANCE_SECONDS : tolerance,
    queryToken: options.queryToken,
    headersTimeoutMs,
    requestTimeoutMs,
    fsync: options.fsync ?? true,
  };
}

function readHead(req: IncomingMessage, receivedAt: number): RequestHead {
  const url = req.url ?? '';
  const headers = new Map<string, string>();
  const repeated = new Set<string>();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    const value = raw[i + 1] as string;
    const previous = headers.get(name);
    if (previous === undefined) headers.set(name, value);
    else {
      headers.set(name, `${previous}, ${value}`);
      repeated.add(name);
    }
  }
  return {
    receivedAt,
    method: req.method ?? '',
    url,
    path: pathOf(url),
    httpVersion: req.httpVersion,
    peer: { address: req.socket.remoteAddress ?? null, port: req.socket.remotePort ?? null },
    headers: Object.fromEntries(headers),
    repeatedHeaders: [...repeated],
  };
}

/** The path of a request target: origin-form up to "?", or the path of an absolute-form URL. */
function pathOf(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (path.startsWith('/')) return path;
  try {
    return new URL(url).pathname;
  } catch {
    return path;
  }
}

function queryOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? '' : url.slice(q + 1);
}

/** Reads a body up to `cap` bytes; never rejects. */
function readBody(req: IncomingMessage, cap: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > cap) {
      resolve({ kind: 'too_large', size: declared });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: BodyResult) => {
      if (done) return;
      done = true;
      chunks.length = 0;
      resolve(result);
    };
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > cap) finish({ kind: 'too_large', size });
      else chunks.push(chunk);
    });
    req.on('end', () => finish({ kind: 'complete', body: Buffer.concat(chunks) }));
    req.on('close', () => finish({ kind: 'aborted', body: Buffer.concat(chunks) }));
    req.on('error', () => finish({ kind: 'aborted', body: Buffer.concat(chunks) }));
  });
}

function resetSocket(socket: Socket): void {
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

function summary(endpoint: SinkEndpoint): EndpointSummary {
  return { path: endpoint.path, livemode: endpoint.livemode, events: endpoint.events, enabled: endpoint.enabled !== false };
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
