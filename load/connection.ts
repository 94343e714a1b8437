/**
 * What the load generator asks of a connection, whichever carries it (http1-connection.ts for
 * http:, undici-connection.ts for https:): one request at a time, its answer as status and
 * bytes, or a ConnectionError whose code says how it failed (errorKind in generator.ts sorts them).
 */
import type { LoadErrorCode } from '../core/error-codes.ts';

export interface ConnectionRequest {
  method: string;
  path: string;
  headers: Readonly<Record<string, string>>;
  body?: string;
}

export interface ConnectionAnswer {
  status: number;
  /** The bytes: decoded only by the checks that read them (observe.ts). */
  body: Buffer;
  /** A 429's `Retry-After` value as sent (read on 429 answers only); absent when there was none. */
  retryAfter?: string;
}

export interface Connection {
  send(req: ConnectionRequest): Promise<ConnectionAnswer>;
  close(): Promise<void>;
}

/** A failed request: `code` says how (HPS_TIMEOUT, HPS_PROTOCOL, HPS_BODY_TOO_LARGE, …). */
export class ConnectionError extends Error {
  constructor(
    message: string,
    readonly code: LoadErrorCode,
  ) {
    super(message);
  }
}
