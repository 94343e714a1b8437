/**
 * A plain node:http reverse proxy with Node's default limits (16 KiB header block, default
 * time-outs): what a service written on node:http puts in front of itself. It forwards every
 * request to `upstream` as it came (method, path, headers but the hop-by-hop ones, body streamed)
 * and the answer back the same way. What node:http itself refuses (a header block over 16 KiB)
 * never reaches the upstream: Node answers it (431 or 400, empty body), as it would in production.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { forwardable, upstreamRequest } from '../perf/field-proxy.ts';

export interface RunningProxy {
  url: string;
  /** Requests forwarded to the upstream so far. */
  readonly forwarded: number;
  /** Upstream exchanges that failed (answered 502 by the proxy itself): method, path and the error. */
  readonly upstreamErrors: readonly string[];
  close(): Promise<void>;
}

/** Bound on one upstream exchange; the suite's own deadlines are shorter. */
const UPSTREAM_TIMEOUT_MS = 60_000;

export async function startPassThroughProxy(upstream: string): Promise<RunningProxy> {
  const target = new URL(upstream);
  // `timeout` must be set for Node's agent to honour the upstream's `Keep-Alive: timeout=N` hint
  // (it keeps min(timeout, N s - 1 s)); without it an idle socket is kept past the upstream's
  // keep-alive time-out, and a request sent on it as the upstream closes it gets a reset: a 502
  // from the proxy that the service never answered.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: UPSTREAM_TIMEOUT_MS });
  let forwarded = 0;
  const upstreamErrors: string[] = [];
  const server = http.createServer((req, res) => {
    forwarded += 1;
    const upstreamReq = http.request(
      upstreamRequest(target, req, agent, UPSTREAM_TIMEOUT_MS),
      (upstreamRes) => {
        res.writeHead(upstreamRes.statusCode ?? 502, forwardable(upstreamRes.headers));
        upstreamRes.pipe(res);
        upstreamRes.on('error', () => res.destroy());
      },
    );
    upstreamReq.on('timeout', () => upstreamReq.destroy(new Error('upstream time-out')));
    upstreamReq.on('error', (err: NodeJS.ErrnoException) => {
      upstreamErrors.push(`${req.method} ${req.url}: ${err.code ?? err.message}`);
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway\n');
      else res.destroy();
    });
    req.pipe(upstreamReq);
    req.on('error', () => upstreamReq.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get forwarded() {
      return forwarded;
    },
    upstreamErrors,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
