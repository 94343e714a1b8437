/**
 * The load generator's transport for https: targets: one undici Client (pipelining 1) driven
 * through `dispatch` with ONE handler object, reused for every request (no stream, promise
 * executor or callback closure per request). http: targets go through http1-connection.ts,
 * which costs less per request. undici's own timers restart on every byte, so a trickle would
 * never end: the request's deadline is kept by deadlines.ts, as for http1-connection.ts.
 */
import { Client as UndiciClient, type Dispatcher } from '../core/undici.ts';
import { dispatcherFor, proxySettings, targetHeaders, type ProfileNetwork } from '../core/network.ts';
import { trackDeadlines, type HasDeadline } from './deadlines.ts';
import { Settler } from './settler.ts';
import { IDLE_KEEP_ALIVE_MS } from '../core/keep-alive.ts';
import { ConnectionError, type Connection, type ConnectionAnswer, type ConnectionRequest } from './connection.ts';

const noop = (): void => undefined;

/** Whether a target's connections need undici whatever the scheme: a proxy, gateway headers or mutual TLS (core/network.ts). */
export function needsDispatcher(network: ProfileNetwork | undefined): boolean {
  const { direct, ...rest } = network ?? {};
  return (!direct && proxySettings() !== undefined) || Object.keys(rest).length > 0;
}

export class UndiciConnection implements Connection, HasDeadline {
  private readonly client: Dispatcher;
  /** With a network section: the target's origin (an agent dispatches by it) and its headers. */
  private readonly routed: { origin: string; headers: Record<string, string> } | undefined;
  private status = 0;
  private retryAfter: string | undefined;
  private chunks: Buffer[] = [];
  private size = 0;
  private abort: (e: Error) => void = noop;
  private inFlight = false;
  private deadline = Infinity;
  private readonly answer = new Settler<ConnectionAnswer>();

  constructor(
    baseUrl: string,
    private readonly timeoutMs: number,
    private readonly maxBodyBytes: number,
    network?: ProfileNetwork,
  ) {
    const origin = new URL(baseUrl).origin;
    this.routed = needsDispatcher(network) ? { origin, headers: targetHeaders(network) } : undefined;
    this.client = this.routed ? dispatcherFor(
      origin,
      network,
      1,
    ) : new UndiciClient(
      origin,
      { pipelining: 1, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connectTimeout: timeoutMs, keepAliveTimeout: IDLE_KEEP_ALIVE_MS },
    );
    trackDeadlines(this, true);
  }

  checkDeadline(now: number): void {
    if (this.inFlight && now > this.deadline) this.abort(new ConnectionError(
      `no complete answer within ${this.timeoutMs} ms`,
      'HPS_TIMEOUT',
    ));
  }

  send(req: ConnectionRequest): Promise<ConnectionAnswer> {
    this.status = 0;
    this.chunks = [];
    this.size = 0;
    this.abort = noop;
    this.inFlight = true;
    this.deadline = performance.now() + this.timeoutMs;
    const answer = this.answer.next();
    const r = this.routed;
    // undici reads the options it knows (no copy per request, unless the network adds headers or routes by origin)
    this.client.dispatch(
      (r ? { ...req, origin: r.origin, headers: { ...r.headers, ...req.headers } } : req) as Parameters<Dispatcher['dispatch']>[0],
      this,
    );
    return answer;
  }

  close(): Promise<void> {
    trackDeadlines(this, false);
    return this.client.destroy().catch(() => undefined);
  }

  onConnect(abort: (e: Error) => void): void {
    this.abort = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    this.status = statusCode;
    this.retryAfter = statusCode === 429 ? retryAfterOf(rawHeaders) : undefined;
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.size += chunk.length;
    if (this.size > this.maxBodyBytes) this.abort(Object.assign(
      new Error(`answer larger than ${this.maxBodyBytes} bytes`),
      { code: 'HPS_BODY_TOO_LARGE' },
    ));
    else this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    this.inFlight = false;
    const c = this.chunks;
    const body = c.length === 1 ? c[0]! : Buffer.concat(c);
    this.answer.resolve(this.retryAfter === undefined ? {
      status: this.status,
      body,
    } : { status: this.status, body, retryAfter: this.retryAfter });
  }

  onError(err: Error): void {
    this.inFlight = false;
    this.answer.reject(err);
  }
}

/** The first Retry-After among undici's raw headers (name, value, name, value…). */
function retryAfterOf(raw: Buffer[]): string | undefined {
  for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i]!.toString('latin1').toLowerCase() === 'retry-after') return raw[i + 1]!.toString('latin1').trim();
  return undefined;
}
