/**
 * A loopback HTTP server that counts the connections it accepts: the tests of idle keep-alive
 * connections (is a connection reused, or a new one opened?) run their clients against it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingServer {
  url: string;
  /** Connections accepted so far. */
  readonly connections: number;
  close(): Promise<void>;
}

/**
 * `keepAliveMs` > 0: Node's idle time-out, announced as `Keep-Alive: timeout=N`. `silentIdleMs`
 * instead: no announcement (keepAliveTimeout 0), and an idle connection is closed after that long,
 * as servers that do not say so do. Every request is answered `status` with a small JSON body.
 */
export async function startCountingServer(o: { keepAliveMs?: number; silentIdleMs?: number; status?: number }): Promise<CountingServer> {
  let connections = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (o.silentIdleMs !== undefined) res.on('finish', () => req.socket.setTimeout(o.silentIdleMs!, () => req.socket.destroy()));
      res.writeHead(o.status ?? 200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.keepAliveTimeout = o.silentIdleMs !== undefined ? 0 : (o.keepAliveMs ?? 5_000);
  server.on('connection', (socket) => {
    connections += 1;
    if (o.silentIdleMs !== undefined) socket.setTimeout(0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get connections() {
      return connections;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
