/**
 * The suite's HTTP client, on undici: one keep-alive pool per origin, no redirect ever followed
 * (undici's request() follows none unless an interceptor is added), and a redacted transcript of
 * every exchange kept as evidence. Bounded whatever the target does: an overall deadline covers
 * the head and the whole body (undici's own timers only catch silence, not a trickle), and the
 * body is read chunk by chunk up to a size cap (default 8 MiB). Either limit, a refused or reset
 * connection, or broken framing ends as a TransportError with a stable code and the numbers.
 */
import type { Exchange } from '../catalogue/report/model.ts';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { setTimeout as sleep } from 'node:timers/promises';
import { awaitTurn, budgetLeft, MAX_WAIT_PER_REQUEST_MS, onAccepted, onThrottled, waitBudgetMs } from './back-pressure.ts';
import { passTargetGate } from './target-gate.ts';
import { DEFAULT_OUTAGE_BUDGET_MS, passCircuit, recordAnswer, recordNoAnswer, resetCircuits } from './circuit.ts';
import { redactCredential, redactHeaders, redactText } from './redact.ts';
import { dispatcherFor, dispatcherKey, redactedHeaderNames, targetHeaders, type ProfileNetwork } from './network.ts';
import { parseBoundedJson } from './bounded-json.ts';
import { ownString } from './bounded-value.ts';
import { AttemptTurn, LARGE_ANSWER_BYTES, noteAnswerBytes } from './large-answers.ts';
import { redactOnRead, shownOnRead } from './redact-on-read.ts';
import type { ErrorCode, HarnessErrorCode } from './error-codes.ts';
import { transportCause, type TransportCause } from './transport-causes.ts';

export type { Exchange } from '../catalogue/report/model.ts';

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The body's length in characters when `text` holds only its start (a copy kept of a large answer: keptAnswer). */
  textChars?: number;
  /** Parsed JSON body, or undefined when the body is not JSON (or is nested past the bound). */
  json: any;
  /** Set when the body was not parsed because it passed a bound (core/bounded-json.ts): which, in words. */
  jsonBound?: string;
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
  /** Overall deadline of this request (head and body), ms. */
  timeoutMs?: number;
  /**
   * Set by a probe that deliberately steps outside ordinary HTTP (an oversized
   * header, a method the API never binds, a fragment on the wire): why. Its
   * answer may come from whatever stands in front of the service, so it is
   * observed, never judged by the ambient rules about API answers.
   */
  outsideHttp?: string;
  /** Largest answer body read, bytes. */
  maxResponseBytes?: number;
  /** A probe that looks for 429s on purpose (the rate-limit rules): a 429 is returned, never waited out. */
  acceptThrottle?: boolean;
  /** Never send this request twice, even when it is idempotent (a probe that counts its own requests). */
  noRetry?: boolean;
}

/** Why a request got no usable HTTP answer; never a conformance verdict by itself. */
/** The codes a transport failure carries (core/error-codes.ts). */
export type TransportErrorCode = Extract<HarnessErrorCode, 'HPS_ERR_TARGET_UNREACHABLE' | 'HPS_ERR_TARGET_TIMEOUT' | 'HPS_ERR_TARGET_OVERSIZE' | 'HPS_ERR_TARGET_GARBAGE' | 'HPS_ERR_TARGET_THROTTLED' | 'HPS_ERR_KEY_REJECTED'>;

export interface TransportFigures {
  /** Milliseconds from sending to giving up. */
  elapsedMs: number;
  /** Body bytes received before giving up. */
  receivedBytes: number;
  deadlineMs: number;
  maxResponseBytes: number;
}

export class TransportError extends Error {
  readonly code: TransportErrorCode;
  readonly figures: TransportFigures | undefined;
  /** The request was never sent (the target is known gone, or the key refused): sending it again is pointless. */
  readonly notSent: boolean;
  /** What kind of unreachable, when known (core/transport-causes.ts): the preflight ends the command with it. */
  readonly kind: TransportCause | undefined;
  constructor(code: TransportErrorCode, message: string, figures?: TransportFigures, notSent = false, kind?: TransportCause) {
    super(message);
    this.name = 'TransportError';
    this.code = code;
    this.figures = figures;
    this.notSent = notSent;
    this.kind = kind;
  }
}

/** Default cap on an answer body (profile: probes.max_response_bytes). */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
/** Default overall deadline of a request (profile: probes.request_timeout_ms). */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** The body grew past the cap (or said it would). */
class Oversize extends Error {
  readonly code = 'HPS_ERR_TARGET_OVERSIZE' satisfies ErrorCode;
  constructor(readonly bytes: number, readonly declared: boolean) {
    super('oversize');
  }
}

const MAX_EVIDENCE_BODY = 4096;
/** Profile keys found refused during the run (rotated, revoked): key → why. Per process, forgotten with the run. */
const rejectedKeys = new Map<string, string>();

/** How often an idempotent request is sent again after a transport failure or a 502/503/504. */
export const MAX_RETRIES = 3;
const RETRIED_TRANSPORT = new Set<TransportErrorCode>(['HPS_ERR_TARGET_UNREACHABLE', 'HPS_ERR_TARGET_TIMEOUT']);
/** The client guidance: "a create is retried after a network failure, a 429 … or a 502, 503 or 504 … Reads are retried the same way." */
const RETRIED_STATUSES = new Set([502, 503, 504]);

function backoffMs(retry: number): number {
  return Math.min(2_000, 200 * 2 ** (retry - 1)) + Math.floor(Math.random() * 100);
}

/** A read, or a create carrying an Idempotency-Key: safe to send again (spec, client retry guidance). */
function isIdempotent(o: RequestOptions): boolean {
  if (o.method === 'GET' || o.method === 'HEAD') return true;
  return o.method === 'POST' && o.idempotencyKey !== undefined && /^\/v1\/payments(\?|$)/.test(o.path);
}

/** What one Client's requests cost beyond their answers: back-pressure, outages and retries. */
export interface ClientStats {
  /** 429 answers waited out and sent again. */
  throttled: number;
  /** Time those 429s asked to wait (Retry-After), ms. */
  throttleWaitMs: number;
  /** Time spent waiting for the pace (after a 429, or under --max-rps), ms. */
  paceWaitMs: number;
  /** Time spent waiting for a target that stopped answering to answer again (circuit half-open), ms. */
  outageWaitMs: number;
  /** Time spent waiting while another suite had the target alone (core/target-gate.ts), ms. */
  gateWaitMs: number;
  /** Time spent waiting for a turn while the target's answers are large (core/large-answers.ts), ms. */
  largeWaitMs: number;
  /** Idempotent requests sent again after a transport failure. */
  transportRetries: number;
  /** Idempotent requests sent again after a 502, 503 or 504. */
  statusRetries: number;
}

export function emptyStats(): ClientStats {
  return {
    throttled: 0, throttleWaitMs: 0, paceWaitMs: 0, outageWaitMs: 0, gateWaitMs: 0, largeWaitMs: 0, transportRetries: 0, statusRetries: 0,
  };
}
/** One dispatcher per origin and network (core/network.ts: the proxy of the environment, mutual TLS). */
const pools = new Map<string, { origin: string; dispatcher: Dispatcher }>();

function poolFor(key: string, origin: string, network: ProfileNetwork | undefined): Dispatcher {
  let p = pools.get(key);
  if (!p) {
    p = { origin, dispatcher: dispatcherFor(origin, network, 32) };
    pools.set(key, p);
  }
  return p.dispatcher;
}

/**
 * Forgets everything a previous run left in this process: its pools (to a target that may be gone),
 * the exchange numbering and the circuit breakers. The pools close in the background.
 */
export function resetClientState(): void {
  for (const p of pools.values()) void p.dispatcher.close().catch(() => undefined);
  pools.clear();
  seqCounter = 0;
  rejectedKeys.clear();
  resetCircuits();
}

/**
 * Closes the pool to one origin (a run's target, at its end). Runs side by side in one process
 * (the mutation score) each close their own: closing every pool would cut the others' requests.
 */
export async function closePoolOf(baseUrl: string): Promise<void> {
  let origin: string;
  try {
    origin = new URL(baseUrl).origin;
  } catch {
    return;
  }
  const closing = [...pools].filter(([, p]) => p.origin === origin);
  for (const [key] of closing) pools.delete(key);
  await Promise.all(closing.map(([, p]) => p.dispatcher.close().catch(() => undefined)));
}

/** Closes every pool (end of a worker or a CLI run). */
export async function closeAllPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.dispatcher.close().catch(() => undefined)));
}

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** The body kept in the exchange: its start, a string of its own (the whole answer is not kept alive through it). */
function clip(s: string): string {
  return s.length > MAX_EVIDENCE_BODY ? ownString(`${s.slice(0, MAX_EVIDENCE_BODY)}… (${s.length} chars)`) : s;
}

export interface ClientOptions {
  baseUrl: string;
  /** Overall deadline of every request (head and body), ms. Default 10 000. */
  timeoutMs?: number;
  /** Cap on every answer body, bytes. Default 8 MiB. */
  maxResponseBytes?: number;
  /** Secrets to redact from free text besides key-shaped strings (control token). */
  secrets?: readonly string[];
  /** How long the target may stay away before requests are refused at once (probes.outage_budget_s), ms. */
  outageBudgetMs?: number;
  /**
   * The profile's keys that should be accepted, by value → profile field (every key but the revoked
   * one). A 401 on one of them is checked with a plain read: refused there too, the key was
   * rotated or revoked during the run, and every request on it ends as a harness error (ERROR),
   * never as the service's answer to judge.
   */
  workingKeys?: ReadonlyMap<string, string>;
  /** Called with every finished exchange (ambient checks, transcripts). */
  onExchange?: (ex: Exchange, res: ApiResponse | undefined, req: RequestOptions) => void;
  /** How the target is reached (core/network.ts): its headers go on every request of this client. */
  network?: ProfileNetwork;
}

let seqCounter = 0;

/**
 * Reads a body chunk by chunk, refusing (and dropping the connection) past `cap` bytes. A body of
 * LARGE_ANSWER_BYTES or more (declared, or once read that far) awaits `large()` before it is read
 * on: its turn (core/large-answers.ts).
 */
async function readCapped(
  body: Readable,
  declared: string | string[] | undefined,
  cap: number,
  progress: (n: number) => void,
  large: () => Promise<void>,
): Promise<Buffer> {
  const length = typeof declared === 'string' && /^\d+$/.test(declared) ? Number(declared) : undefined;
  if (length !== undefined) noteAnswerBytes(length);
  if (length !== undefined && length > cap) {
    body.on('error', () => {}); // undici reports its own abort as an error event: expected here
    body.destroy(); // the connection goes with it (never reused mid-body)
    throw new Oversize(length, true);
  }
  let turn = length !== undefined && length >= LARGE_ANSWER_BYTES ? large() : undefined;
  if (turn) await turn;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    progress(size);
    if (size > cap) {
      body.on('error', () => {});
      body.destroy();
      throw new Oversize(size, false);
    }
    chunks.push(chunk);
    if (!turn && size >= LARGE_ANSWER_BYTES) await (turn = large());
  }
  noteAnswerBytes(size);
  return Buffer.concat(chunks, size);
}

const GARBAGE_CODES = new Set([
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH', 'UND_ERR_INFO', 'HPE_INVALID_CONSTANT', 'HPE_INVALID_CHUNK_SIZE', 'HPE_INVALID_CONTENT_LENGTH',
  'HPE_INVALID_HEADER_TOKEN', 'HPE_INVALID_STATUS', 'HPE_INVALID_VERSION', 'HPE_UNEXPECTED_CONTENT_LENGTH', 'HPE_INVALID_TRANSFER_ENCODING',
  'HPE_LF_EXPECTED', 'HPE_CR_EXPECTED',
]);

/**
 * A request's deadline: aborts with the TimeoutError AbortSignal.timeout gives, and is cleared once
 * the answer is read. AbortSignal.timeout's timer cannot be cleared: each request's fired at its
 * deadline long after the answer, building an exception every time (~5 000 a whole run). It stands
 * still between `pause()` and `resume()`: the suite's own wait for a large answer's turn.
 */
function deadlineSignal(ms: number): AbortSignal & { clear(): void; pause(): void; resume(): void } {
  const controller = new AbortController();
  const arm = (after: number) => {
    const t = setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), after);
    t.unref();
    return t;
  };
  let left = ms;
  let since = performance.now();
  let timer = arm(ms);
  return Object.assign(controller.signal, {
    clear: () => clearTimeout(timer),
    pause: () => {
      clearTimeout(timer);
      left -= performance.now() - since;
    },
    resume: () => {
      since = performance.now();
      timer = arm(Math.max(0, left));
    },
  });
}

/**
 * A large body is read on only in its turn (core/large-answers.ts), held until it is parsed: the
 * request's deadline stands still while it waits, and the exchange's duration leaves the wait out.
 */
function largeBodyTurn(
  deadline: ReturnType<typeof deadlineSignal>,
  turn: AttemptTurn,
  onWait: (ms: number) => void,
): { take: () => Promise<void>; waitedMs: () => number } {
  let waitedMs = 0;
  return {
    take: async () => {
      deadline.pause();
      const waited = await turn.forLargeBody();
      waitedMs += waited;
      onWait(waited);
      deadline.resume();
    },
    waitedMs: () => waitedMs,
  };
}

/** One stable code and a message with the numbers, whatever undici threw. */
function transportErrorOf(
  err: Error & { code?: string },
  timedOut: boolean,
  what: string,
  origin: string,
  f: TransportFigures,
): TransportError {
  const got = `${f.receivedBytes} body bytes in ${f.elapsedMs} ms`;
  if (err instanceof Oversize) {
    const size = err.declared ? `declares ${err.bytes} bytes` : `passed ${f.maxResponseBytes} bytes`;
    const cap = `over the ${f.maxResponseBytes}-byte cap (probes.max_response_bytes)`;
    const message = `${what}: the answer body ${size}, ${cap}; dropped after ${f.elapsedMs} ms`;
    return new TransportError('HPS_ERR_TARGET_OVERSIZE', message, f);
  }
  if (timedOut || err.code === 'UND_ERR_HEADERS_TIMEOUT' || err.code === 'UND_ERR_BODY_TIMEOUT') {
    return new TransportError('HPS_ERR_TARGET_TIMEOUT', `${what}: no complete answer within the ${f.deadlineMs} ms deadline (${got})`, f);
  }
  const code = err.code ?? (err.cause as { code?: string } | undefined)?.code;
  const cause = transportCause(code, err.message);
  if (cause) {
    const message = `${what}: ${origin}: ${cause.line} (${code}; ${got})`;
    return new TransportError('HPS_ERR_TARGET_UNREACHABLE', message, f, false, cause);
  }
  if ((code && (GARBAGE_CODES.has(code) || code.startsWith('HPE_'))) || /parse|invalid/i.test(err.message)) {
    return new TransportError(
      'HPS_ERR_TARGET_GARBAGE',
      `${what}: ${origin} answered with broken HTTP framing (${code ?? err.message}; ${got})`,
      f,
    );
  }
  return new TransportError(
    'HPS_ERR_TARGET_UNREACHABLE',
    `${what}: ${origin} could not be reached or dropped the connection (${code ?? err.message}; ${got})`,
    f,
  );
}

/** The headers and body a request's options stand for. */
function wireOf(o: RequestOptions, extra: Record<string, string>): { headers: Record<string, string>; body: string | Buffer | undefined } {
  const headers: Record<string, string> = { accept: 'application/json', ...extra, ...(o.headers ?? {}) };
  if (o.authorization !== undefined) headers.authorization = o.authorization;
  else if (o.key) headers.authorization = `Bearer ${o.key}`;
  if (o.idempotencyKey !== undefined) headers['idempotency-key'] = o.idempotencyKey;
  let body: string | Buffer | undefined;
  if (o.raw !== undefined) body = o.raw;
  else if (o.json !== undefined) {
    body = JSON.stringify(o.json);
    if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  }
  return { headers, body };
}

export class Client {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  private readonly origin: string;
  private readonly prefix: string;
  private readonly secrets: readonly string[];
  private readonly onExchange: ClientOptions['onExchange'];
  readonly transcript: Exchange[] = [];
  readonly stats: ClientStats = emptyStats();
  private readonly outageBudgetMs: number;
  private readonly workingKeys: ReadonlyMap<string, string>;
  private readonly network: ProfileNetwork | undefined;
  private readonly extraHeaders: Record<string, string>;
  private readonly redactedNames: ReadonlySet<string>;
  /** Which dispatcher this client's requests take (origin, TLS files, the proxy as the environment said at construction). */
  private readonly poolKey: string;

  constructor(opts: ClientOptions) {
    const u = new URL(opts.baseUrl);
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.origin = u.origin;
    this.prefix = u.pathname.replace(/\/+$/, '');
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxResponseBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.secrets = opts.secrets ?? [];
    this.onExchange = opts.onExchange;
    this.outageBudgetMs = opts.outageBudgetMs ?? DEFAULT_OUTAGE_BUDGET_MS;
    this.workingKeys = opts.workingKeys ?? new Map();
    this.network = opts.network;
    this.extraHeaders = targetHeaders(opts.network);
    this.redactedNames = redactedHeaderNames(opts.network);
    this.poolKey = dispatcherKey(this.origin, opts.network);
  }

  /** Headers as evidence: secrets redacted, and a secret header's value whatever its length (a fingerprint). */
  private evidenceHeaders(headers: Record<string, string>): Record<string, string> {
    const out = redactHeaders(headers, this.secrets);
    for (const k of Object.keys(out)) if (this.redactedNames.has(k.toLowerCase())) out[k] = redactCredential(headers[k]!);
    return out;
  }

  /** The exchange as recorded before sending: redacted like everything kept as evidence. */
  private exchangeOf(o: RequestOptions, headers: Record<string, string>, body: string | Buffer | undefined): Exchange {
    // A probe may carry a credential in the query: the recorded path is redacted like the rest.
    const request = { method: o.method, path: redactText(o.path, this.secrets) } as Exchange['request'];
    shownOnRead(request, 'headers', () => this.evidenceHeaders(headers));
    if (body !== undefined) redactOnRead(request, 'body', clip(body.toString()), this.secrets);
    return { seq: ++seqCounter, at: new Date().toISOString(), durationMs: 0, request };
  }

  /**
   * One logical request, sent the way the spec's client guidance says (core/back-pressure.ts):
   * a 429 is waited out (Retry-After) and sent again, on any operation, unless the caller asked to
   * see 429s (`acceptThrottle`: the rate-limit probes); an idempotent request (a read, or a create
   * carrying an Idempotency-Key) that meets a transport failure, a 502, 503 or 504 is sent again a
   * bounded number of times after a short back-off. Only the answer finally returned is judged
   * (onExchange with the response); the attempts before it are kept in the transcript and counted
   * (`stats`), never judged.
   */
  async request(o: RequestOptions): Promise<ApiResponse> {
    const modelClient = !o.outsideHttp && !o.acceptThrottle;
    const slot = `${this.origin} ${o.authorization ?? (o.key ? `Bearer ${o.key}` : '')}`;
    const idempotent = modelClient && !o.noRetry && isIdempotent(o);
    let throttledMs = 0;
    let retries = 0;
    const rejected = o.key ? rejectedKeys.get(o.key) : undefined;
    if (rejected) throw new TransportError('HPS_ERR_KEY_REJECTED', `${o.method} ${o.path}: not sent, ${rejected}`, undefined, true);
    for (;;) {
      if (modelClient) this.stats.paceWaitMs += await awaitTurn(slot);
      let res: ApiResponse;
      try {
        res = await this.attempt(o);
      } catch (e) {
        if (e instanceof TransportError && !e.notSent && idempotent && RETRIED_TRANSPORT.has(e.code) && retries < MAX_RETRIES) {
          retries++;
          this.stats.transportRetries++;
          await sleep(backoffMs(retries));
          continue;
        }
        throw e;
      }
      if (modelClient && res.status === 429) {
        const waitMs = onThrottled(slot, res.headers['retry-after']);
        this.stats.throttled++;
        this.stats.throttleWaitMs += waitMs;
        this.kept(res.exchange, o, `429: waited ${(waitMs / 1000).toFixed(1)} s (Retry-After) and sent it again`);
        if (throttledMs + waitMs > MAX_WAIT_PER_REQUEST_MS || !budgetLeft()) {
          const bound = budgetLeft()
            ? `${MAX_WAIT_PER_REQUEST_MS / 1000} s per request`
            : `the run's wait budget of ${Math.round(waitBudgetMs() / 1000)} s is spent`;
          const waited = `still answered 429 after ${Math.round(throttledMs / 1000)} s of waiting as Retry-After asked`;
          throw new TransportError('HPS_ERR_TARGET_THROTTLED', `${o.method} ${o.path}: ${waited} (${bound}); back-pressure, not a verdict`);
        }
        throttledMs += waitMs;
        continue;
      }
      if (modelClient) onAccepted(slot);
      if (idempotent && RETRIED_STATUSES.has(res.status) && retries < MAX_RETRIES) {
        retries++;
        this.stats.statusRetries++;
        this.kept(res.exchange, o, `${res.status}: sent again (the client guidance retries ${[...RETRIED_STATUSES].join(', ')})`);
        await sleep(backoffMs(retries));
        continue;
      }
      if (res.status === 401 && modelClient && o.key && this.workingKeys.has(o.key) && o.authorization === undefined) await this.checkKeyStillWorks(o.key, o);
      this.record(res.exchange, res, o);
      return res;
    }
  }

  /**
   * A profile key that should work was answered 401: read with it once more (unrecorded). Refused
   * there too, it no longer works (rotated or revoked during the run): configuration trouble, not
   * the service's answer to this request. Accepted there, the 401 was this request's answer.
   */
  private async checkKeyStillWorks(key: string, o: RequestOptions): Promise<void> {
    let again: ApiResponse;
    try {
      again = await this.attempt({ method: 'GET', path: '/v1/payments?limit=1', key });
    } catch {
      return;
    }
    if (again.status !== 401) return;
    const why = `keys.${this.workingKeys.get(key)} is refused (401) by the service, also on a plain read: was it rotated or revoked ` +
      `during the run? The rules left that need it are ERROR, not judged`;
    rejectedKeys.set(key, why);
    throw new TransportError('HPS_ERR_KEY_REJECTED', `${o.method} ${o.path}: ${why}`);
  }

  /**
   * One attempt: first, while a suite has the target alone (the rate-limit probes, core/target-gate.ts),
   * a wait before anything is stamped or sent; while the target's answers are large, a turn
   * (core/large-answers.ts); then the attempt on the wire, counted in flight.
   */
  private async attempt(o: RequestOptions): Promise<ApiResponse> {
    const pass = await passTargetGate();
    this.stats.gateWaitMs += pass.waitedMs;
    try {
      const turn = await AttemptTurn.before();
      this.stats.largeWaitMs += turn.waitedMs;
      try {
        return await this.attemptOnWire(o, turn);
      } finally {
        turn.leave();
      }
    } finally {
      pass.leave();
    }
  }

  /** While the target stays away (core/circuit.ts): a wait, or, past the outage budget, not sent (recorded, thrown). */
  private async waitOutOutage(o: RequestOptions, exchange: Exchange): Promise<void> {
    const gate = await passCircuit(this.origin, this.outageBudgetMs);
    this.stats.outageWaitMs += gate.waitedMs;
    if (!gate.refused) return;
    exchange.transportError = gate.refused;
    this.record(exchange, undefined, o);
    throw new TransportError('HPS_ERR_TARGET_UNREACHABLE', `${o.method} ${o.path}: not sent, ${gate.refused}`, undefined, true);
  }

  /** One attempt on the wire: the answer, or a TransportError (recorded and judged as no answer). */
  private async attemptOnWire(o: RequestOptions, turn: AttemptTurn): Promise<ApiResponse> {
    const { headers, body } = wireOf(o, this.extraHeaders);
    const exchange = this.exchangeOf(o, headers, body);
    const limits = { deadlineMs: o.timeoutMs ?? this.timeoutMs, maxResponseBytes: o.maxResponseBytes ?? this.maxResponseBytes };
    if (!o.outsideHttp) await this.waitOutOutage(o, exchange);
    const started = performance.now();
    const deadline = deadlineSignal(limits.deadlineMs);
    let received = 0;
    const bodyTurn = largeBodyTurn(deadline, turn, (ms) => (this.stats.largeWaitMs += ms));
    const elapsed = () => Math.round(performance.now() - started - bodyTurn.waitedMs());
    try {
      const res = await poolFor(this.poolKey, this.origin, this.network).request({
        origin: this.origin,
        method: o.method as 'GET',
        path: this.prefix + o.path,
        headers,
        body,
        signal: deadline,
        headersTimeout: limits.deadlineMs,
        bodyTimeout: limits.deadlineMs,
      });
      const declared = res.headers['content-length'];
      const bytes = await readCapped(res.body, declared, limits.maxResponseBytes, (n) => (received = n), bodyTurn.take);
      const text = bytes.toString('utf8');
      exchange.durationMs = elapsed();
      const rh = flatHeaders(res.headers as Record<string, string | string[] | undefined>);
      const answer = { status: res.statusCode } as NonNullable<Exchange['response']>;
      shownOnRead(answer, 'headers', () => redactHeaders(rh, this.secrets));
      exchange.response = redactOnRead(answer, 'body', clip(text), this.secrets);
      if (!o.outsideHttp) recordAnswer(this.origin);
      const parsed = parseBoundedJson(text);
      return {
        status: res.statusCode,
        headers: rh,
        text,
        json: parsed.json,
        ...(parsed.bound ? { jsonBound: parsed.bound } : {}),
        exchange,
      };
    } catch (e) {
      exchange.durationMs = elapsed();
      const err = e as Error & { code?: string };
      // undici refusing our own request (a header it will not send) is a suite bug, not target trouble.
      if (err.code === 'UND_ERR_INVALID_ARG' || err.code === 'ERR_INVALID_CHAR' || err.code === 'ERR_INVALID_ARG_TYPE') throw err;
      const figures: TransportFigures = { elapsedMs: exchange.durationMs, receivedBytes: e instanceof Oversize ? e.bytes : received, ...limits };
      const t = transportErrorOf(err, deadline.aborted, `${o.method} ${o.path}`, this.origin, figures);
      exchange.transportError = `${t.code}: ${redactText(t.message, this.secrets)}`;
      if (!o.outsideHttp) recordNoAnswer(this.origin);
      this.record(exchange, undefined, o);
      throw t;
    } finally {
      deadline.clear();
    }
  }

  /** An attempt answered but not returned (waited out or sent again): in the transcript, counted, never judged. */
  private kept(ex: Exchange, o: RequestOptions, note: string): void {
    ex.retried = note;
    this.record(ex, undefined, o);
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
