/**
 * A proxy that makes a conformant target look like a real staging service, written for the
 * purpose of showing the suite's verdicts hold in the field (issue: verdicts against a real
 * staging service). In front of any target it can add, independently:
 *
 * - distance: every answer leaves `delayMs` after its request arrived;
 * - a per-key rate limit (the spec: "Rate limiting exists per key: the response is 429
 *   rate_limit_exceeded with an integer Retry-After header. The request thresholds and window:
 *   not shown"), as a fixed window (Retry-After = whole seconds to the window's end) or a sliding
 *   log (Retry-After = whole seconds until the oldest counted request leaves the window);
 *   refused requests are not counted;
 * - a blip: from the `resetAfter`-th request on, the next `resets` connections are dropped
 *   without an answer (the request is not forwarded);
 * - a key rotated mid-run: from a given request on, one key answers 401 invalid_api_key.
 *
 * Its 429s have the spec's Error shape. It forwards everything else as it came.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';

export interface RateLimitSpec {
  /** Requests allowed per window, per key (the Authorization header's value). */
  limit: number;
  windowMs: number;
  kind: 'fixed' | 'sliding';
}

export interface FieldProxyOptions {
  delayMs?: number;
  rateLimit?: RateLimitSpec;
  /** Drop `resets` connections without answering, starting at the `resetAfter`-th request. */
  resetAfter?: number;
  resets?: number;
  /** A key rotated during the run: from the `after`-th request on, requests carrying `authorization` answer 401 invalid_api_key. */
  rotate?: { authorization: string; after: number };
}

export interface FieldProxy {
  url: string;
  readonly forwarded: number;
  readonly limited: number;
  readonly dropped: number;
  /** Requests forwarded per Authorization value (the busiest key sets the floor of a rate-limited run). */
  readonly perKey: ReadonlyMap<string, number>;
  /** Upstream exchanges that failed (answered 502 by the proxy itself). */
  readonly upstreamErrors: readonly string[];
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
const UPSTREAM_TIMEOUT_MS = 60_000;
/** How long a kept-alive connection to the service may sit idle in the agent. */
const FREE_SOCKET_MS = 1_000;

/** Per-key windows: a fixed window (start, count) or a sliding log of admitted request times. */
class Limiter {
  private readonly fixed = new Map<string, { start: number; count: number }>();
  private readonly logs = new Map<string, number[]>();
  constructor(private readonly spec: RateLimitSpec) {}

  /** Whole seconds to wait when the request is refused, or 0 when it is admitted. */
  take(key: string, now: number): number {
    const { limit, windowMs } = this.spec;
    if (this.spec.kind === 'fixed') {
      let w = this.fixed.get(key);
      if (!w || now >= w.start + windowMs) this.fixed.set(key, (w = { start: now, count: 0 }));
      if (w.count >= limit) return Math.max(1, Math.ceil((w.start + windowMs - now) / 1000));
      w.count++;
      return 0;
    }
    const log = this.logs.get(key) ?? [];
    while (log.length && log[0]! <= now - windowMs) log.shift();
    this.logs.set(key, log);
    if (log.length >= limit) return Math.max(1, Math.ceil((log[0]! + windowMs - now) / 1000));
    log.push(now);
    return 0;
  }
}

export async function startFieldProxy(upstream: string, o: FieldProxyOptions = {}): Promise<FieldProxy> {
  const target = new URL(upstream);
  // Kept-alive connections to the service, each dropped after 1 s idle: the service closes an idle
  // one after 5 s, and a request written on it as it closes is reset without an answer (seen:
  // 'POST /v1/payments: ECONNRESET' in a rate-limited case on a loaded machine, when the agent kept
  // sockets until 1 s before the service's time-out). Two other cures went with requests left
  // unanswered on a loaded machine: sending the request again once, and a new connection per
  // request. A request's own time-out (UPSTREAM_TIMEOUT_MS, below) replaces this one while it runs.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 128, timeout: FREE_SOCKET_MS });
  const limiter = o.rateLimit ? new Limiter(o.rateLimit) : undefined;
  const delay = o.delayMs ?? 0;
  const counts = { seen: 0, forwarded: 0, limited: 0, dropped: 0 };
  const perKey = new Map<string, number>();
  const upstreamErrors: string[] = [];
  const later = (arrived: number, fn: () => void) => {
    const wait = arrived + delay - performance.now();
    if (wait > 0) setTimeout(fn, wait);
    else fn();
  };
  const server = http.createServer((req, res) => {
    const arrived = performance.now();
    counts.seen++;
    if (o.resetAfter !== undefined && counts.seen >= o.resetAfter && counts.dropped < (o.resets ?? 0)) {
      counts.dropped++;
      req.socket.destroy();
      return;
    }
    const auth = req.headers.authorization;
    if (o.rotate && counts.seen >= o.rotate.after && auth === o.rotate.authorization) {
      req.resume();
      later(
        arrived,
        () => res.writeHead(
          401,
          { 'content-type': 'application/json', 'www-authenticate': 'Bearer' },
        ).end(errorBody('invalid_api_key', 'Invalid API key.')),
      );
      return;
    }
    const wait = limiter && auth ? limiter.take(auth, Date.now()) : 0;
    if (wait > 0) {
      counts.limited++;
      req.resume();
      later(
        arrived,
        () => res.writeHead(
          429,
          { 'content-type': 'application/json', 'retry-after': String(wait) },
        ).end(errorBody('rate_limit_exceeded', 'Too many requests for this API key.')),
      );
      return;
    }
    counts.forwarded++;
    if (auth) perKey.set(auth, (perKey.get(auth) ?? 0) + 1);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const up = http.request(upstreamRequest(target, req, agent, UPSTREAM_TIMEOUT_MS), (ures) => {
        const body: Buffer[] = [];
        ures.on('data', (c: Buffer) => body.push(c));
        ures.on('error', () => res.destroy());
        const reply = () => res.writeHead(ures.statusCode ?? 502, forwardable(ures.headers)).end(Buffer.concat(body));
        ures.on('end', () => later(arrived, reply));
      });
      up.on('timeout', () => up.destroy(new Error('upstream time-out')));
      up.on('error', (err: NodeJS.ErrnoException) => {
        upstreamErrors.push(`${req.method} ${req.url}: ${err.code ?? err.message}`);
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway\n');
      });
      up.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get forwarded() {
      return counts.forwarded;
    },
    get limited() {
      return counts.limited;
    },
    get dropped() {
      return counts.dropped;
    },
    perKey,
    upstreamErrors,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The spec's Error shape. */
function errorBody(code: string, message: string): string {
  return JSON.stringify({ error: { code, message, request_id: `req_fp_${randomBytes(6).toString('hex')}` } });
}

/** `req` as it goes on to `target`: its method, path and forwardable headers, on `agent`, with a time-out of its own. */
export function upstreamRequest(target: URL, req: http.IncomingMessage, agent: http.Agent, timeoutMs: number): http.RequestOptions {
  const headers = forwardable(req.headers);
  return { host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent, timeout: timeoutMs };
}

/** RFC 9110 7.6.1: connection-specific fields are not forwarded. */
export function forwardable(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  return out;
}
