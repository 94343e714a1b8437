/** Shared helpers of the reference server's own tests: a client and a tiny webhook receiver. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { startReference, type ReferenceOptions, type RunningReference } from '../../references/service/index.ts';

export interface ApiResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

export async function call(ref: RunningReference, method: string, path: string, opts: CallOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...opts.headers };
  const key = opts.key === undefined ? ref.profile.keys.test : opts.key;
  if (key !== null) headers['authorization'] = `Bearer ${key}`;
  let body: string | Buffer | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await request(ref.url + path, { method: method as 'GET', headers, body });
  const text = await res.body.text();
  let json: unknown = undefined;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers as ApiResponse['headers'], text, json };
}

export function createPayment(
  ref: RunningReference,
  body: Record<string, unknown> = { amount: '100.00' },
  opts: CallOptions = {},
): Promise<ApiResponse> {
  return call(ref, 'POST', '/v1/payments', { ...opts, body });
}

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** performance.now() at arrival (request fully read). */
  at: number;
}

export type Responder = (req: Received, res: http.ServerResponse) => void;

export interface Receiver {
  url: string;
  received: Received[];
  close(): Promise<void>;
  /** Resolves when `predicate` holds for the received list (polls every 10 ms). */
  waitFor(predicate: (received: Received[]) => boolean, timeoutMs?: number): Promise<void>;
}

/** A webhook receiver on port 0; `respond` decides each answer (default 200). */
export async function startReceiver(respond: Responder = (_r, res) => res.end('ok')): Promise<Receiver> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry: Received = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks), at: performance.now() };
      received.push(entry);
      respond(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async waitFor(predicate, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > deadline) throw new Error(`receiver: condition not met within ${timeoutMs} ms (${received.length} received)`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
  };
}

export function eventOf(r: Received): any {
  return JSON.parse(r.body.toString('utf8'));
}

export function secretOf(ref: RunningReference, path: string): string {
  const endpoint = ref.profile.webhooks.endpoints.find((e) => e.path === path);
  if (endpoint === undefined) throw new Error(`no endpoint ${path}`);
  return endpoint.secret;
}

export { startReference, type RunningReference };
