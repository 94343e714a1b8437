/** What the chaos server and the proxy share as HTTP servers: listening on loopback with their sockets tracked, and a bounded request body. */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface LoopbackServer {
  url: string;
  /** Destroys every open connection, then closes the server. */
  close(): Promise<void>;
}

/** Listens on 127.0.0.1:port (0: a free one); a handler that throws is answered 502. */
export async function listenLoopback(
  handle: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>,
  port = 0,
): Promise<LoopbackServer> {
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(502).end();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The request body as text, reading at most `max` bytes of it; `over`: it was longer (the text is cut). */
export function readBody(req: http.IncomingMessage, max: number): Promise<{ text: string; over: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= max) chunks.push(c);
    });
    req.on('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), over: size > max }));
    req.on('error', reject);
  });
}
