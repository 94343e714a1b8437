/** Small pieces of the sink's HTTP handling: the request head, the capped body read, the socket. */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Delivery, EndpointSummary, SinkEndpoint } from './types.ts';
import { relativeSpans } from './stall-spans.ts';

export type BodyResult =
  | { kind: 'complete'; body: Buffer }
  | { kind: 'too_large'; size: number }
  | { kind: 'aborted'; body: Buffer };

/** What the head of a request says, as a Delivery records it (types.ts says what each field means). */
export type RequestHead = Pick<Delivery, 'receivedAt' | 'loopLagMs' | 'stallMs' | 'stalls' | 'stallFloorMs' | 'method' | 'url' | 'path' | 'httpVersion' | 'peer' | 'headers' | 'repeatedHeaders'>;

/** Wall-clock ms with sub-ms precision. */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}

/** Loopback (127.0.0.0/8, ::1, localhost): the only addresses a sink binds without a query token. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h) || /^::ffff:127\./.test(h);
}

/** How the sink's loop ran around an arrival (loop-lag.ts): its recent lag, its longest stall, and when it stalled (epoch spans). */
export interface LoopAtArrival {
  lagMs: number;
  stallMs: number;
  stallSpans: { spans: readonly [number, number][]; floorMs: number };
}

export function readHead(req: IncomingMessage, receivedAt: number, loop?: LoopAtArrival): RequestHead {
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
    ...(loop?.lagMs ? { loopLagMs: loop.lagMs } : {}),
    ...(loop?.stallMs ? { stallMs: loop.stallMs } : {}),
    ...(loop?.stallSpans.spans.length ? { stalls: relativeSpans(loop.stallSpans.spans, receivedAt) } : {}),
    ...(loop?.stallSpans.floorMs ? { stallFloorMs: loop.stallSpans.floorMs } : {}),
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
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (path.startsWith('/')) return path;
  try {
    return new URL(url).pathname;
  } catch {
    return path;
  }
}

export function queryOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? '' : url.slice(q + 1);
}

/** Reads a body up to `cap` bytes; never rejects. */
export function readBody(req: IncomingMessage, cap: number): Promise<BodyResult> {
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

export function resetSocket(socket: Socket): void {
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

export function summary(endpoint: SinkEndpoint): EndpointSummary {
  return { path: endpoint.path, livemode: endpoint.livemode, events: endpoint.events, enabled: endpoint.enabled !== false };
}

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
