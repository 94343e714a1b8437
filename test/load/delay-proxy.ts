/**
 * A known-delay proxy for the accuracy tests: forwards every request to the target and sends
 * the answer exactly `delayMs` after the request arrived (never sooner), and — when armed —
 * stalls once: from the moment the `stallAtGet`-th GET arrives, no answer leaves for
 * `stallMs`. Everything it answers is timed by itself, so the truth is known in the test.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DelayProxy {
  url: string;
  /** Start and end of the stall (performance.now() ms), once it happened. */
  stall: { start: number; end: number } | null;
  /** For each GET answered: when it left minus when it arrived (ms), as timed by the proxy. */
  served: number[];
  close(): Promise<void>;
}

export async function startDelayProxy(
  target: string,
  delayMs: number,
  opts: { stallAtGet?: number; stallMs?: number } = {},
): Promise<DelayProxy> {
  // timeout: so the agent honours the upstream's Keep-Alive hint (see infra/pass-through-proxy.ts).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: 60_000 });
  const upstream = new URL(target);
  let gets = 0;
  const state: DelayProxy = { url: '', stall: null, served: [], close: async () => undefined };
  const server = http.createServer((req, res) => {
    const arrived = performance.now();
    if (req.method === 'GET' && ++gets === opts.stallAtGet) state.stall = { start: arrived, end: arrived + (opts.stallMs ?? 1000) };
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = { ...req.headers, host: upstream.host };
      const up = http.request({
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers,
        agent,
      }, (ures) => {
        const body: Buffer[] = [];
        ures.on('data', (c: Buffer) => body.push(c));
        ures.on('end', () => {
          let at = arrived + delayMs;
          const s = state.stall;
          if (s && at >= s.start && at < s.end) at = s.end;
          setTimeout(() => {
            res.writeHead(ures.statusCode ?? 502, ures.headers);
            res.end(Buffer.concat(body));
            if (req.method === 'GET') state.served.push(performance.now() - arrived);
          }, Math.max(0, at - performance.now()));
        });
      });
      up.on('error', () => {
        res.statusCode = 502;
        res.end();
      });
      up.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
      agent.destroy();
    });
  return state;
}
