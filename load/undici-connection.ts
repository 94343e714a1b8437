/**
 * The load generator's transport for https: targets: one undici Client (pipelining 1) driven
 * through `dispatch` with ONE handler object, reused for every request (no stream, promise
 * executor or callback closure per request). http: targets go through http1-connection.ts,
 * which costs less per request.
 */
import { Client as UndiciClient } from 'undici';
import type { Http1Answer, Http1Request } from './http1-connection.ts';

const noop = (): void => undefined;

export class UndiciConnection {
  private readonly client: UndiciClient;
  private status = 0;
  private chunks: Buffer[] = [];
  private size = 0;
  private abort: (e: Error) => void = noop;
  private resolve: (a: Http1Answer) => void = noop;
  private reject: (e: Error) => void = noop;
  private readonly executor = (resolve: (a: Http1Answer) => void, reject: (e: Error) => void): void => {
    this.resolve = resolve;
    this.reject = reject;
  };

  constructor(
    baseUrl: string,
    timeoutMs: number,
    private readonly maxBodyBytes: number,
  ) {
    this.client = new UndiciClient(new URL(baseUrl).origin, { pipelining: 1, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connectTimeout: timeoutMs, keepAliveTimeout: 30_000 });
  }

  send(req: Http1Request): Promise<Http1Answer> {
    this.status = 0;
    this.chunks = [];
    this.size = 0;
    this.abort = noop;
    const answer = new Promise<Http1Answer>(this.executor);
    this.client.dispatch(req as Parameters<UndiciClient['dispatch']>[0], this); // undici reads the options it knows (no copy per request)
    return answer;
  }

  close(): Promise<void> {
    return this.client.destroy().catch(() => undefined);
  }

  onConnect(abort: (e: Error) => void): void {
    this.abort = abort;
  }

  onHeaders(statusCode: number): boolean {
    this.status = statusCode;
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.size += chunk.length;
    if (this.size > this.maxBodyBytes) this.abort(Object.assign(new Error(`answer larger than ${this.maxBodyBytes} bytes`), { code: 'HPS_BODY_TOO_LARGE' }));
    else this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    const c = this.chunks;
    this.resolve({ status: this.status, body: c.length === 1 ? c[0]! : Buffer.concat(c) });
  }

  onError(err: Error): void {
    this.reject(err);
  }
}
