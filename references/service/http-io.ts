/** Reading request bodies and writing responses, with node:http only. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Request bodies above this are refused (400 invalid_request) by operations that read one. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Beyond this the connection is dropped rather than drained. */
const MAX_DRAIN_BYTES = 32 * 1024 * 1024;

export interface RequestBody {
  bytes: Buffer;
  /** True when the body exceeded MAX_BODY_BYTES; `bytes` is then empty. */
  tooLarge: boolean;
}

/**
 * Reads the whole body, keeping at most MAX_BODY_BYTES. Resolves null when the client
 * went away (nothing can be answered then).
 */
export function readBody(req: IncomingMessage): Promise<RequestBody | null> {
  const none = noBody(req);
  if (none !== null) return Promise.resolve(none);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    let settled = false;
    const settle = (value: RequestBody | null): void => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_DRAIN_BYTES) {
        req.destroy();
        settle(null);
        return;
      }
      if (size > MAX_BODY_BYTES) {
        tooLarge = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => settle({ bytes: tooLarge ? Buffer.alloc(0) : Buffer.concat(chunks), tooLarge }));
    req.on('error', () => settle(null));
    req.on('close', () => settle(null));
  });
}

/**
 * The empty body of a request that has none, at once (no promise turn), or null when there may
 * be one: no Content-Length and no Transfer-Encoding means no body in HTTP/1.1 (RFC 9112 6.3).
 * The common GET is answered without waiting for the end of an empty stream.
 */
export function noBody(req: IncomingMessage): RequestBody | null {
  const h = req.headers;
  if (h['content-length'] !== undefined || h['transfer-encoding'] !== undefined || req.httpVersionMajor !== 1 || req.destroyed) return null;
  req.resume();
  return EMPTY_BODY;
}

const EMPTY_BODY: RequestBody = Object.freeze({ bytes: Buffer.alloc(0), tooLarge: false });

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function sendBytes(
  res: ServerResponse,
  status: number,
  bytes: Buffer,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  // One writeHead (merged with any header set before) instead of one setHeader per header.
  res.writeHead(status, { 'Content-Type': JSON_CONTENT_TYPE, 'Cache-Control': 'no-store', ...headers, 'Content-Length': bytes.length });
  res.end(bytes);
}

/**
 * sendBytes with no extra header but the request id, as one flat header array (what sendBytes
 * writes for it, in the same order) made without spreading objects: the read path's answer.
 */
export function sendBytesWithRequestId(res: ServerResponse, status: number, bytes: Buffer, requestId: string): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, ['Content-Type', JSON_CONTENT_TYPE, 'Cache-Control', 'no-store', 'Request-Id', requestId, 'Content-Length', bytes.length]);
  res.end(bytes);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  sendBytes(res, status, Buffer.from(JSON.stringify(value), 'utf8'), headers);
}

/** `/v1/payments?x=1` or the absolute form `http://host/v1/payments?x=1` into path and query. */
export function splitTarget(rawUrl: string | undefined): { path: string; query: string } {
  let target = rawUrl ?? '/';
  if (!target.startsWith('/')) {
    try {
      const url = new URL(target);
      target = url.pathname + url.search;
    } catch {
      return { path: '', query: '' };
    }
  }
  const q = target.indexOf('?');
  return q === -1 ? { path: target, query: '' } : { path: target.slice(0, q), query: target.slice(q + 1) };
}
