/**
 * Targets that misbehave on purpose, at the TCP level (node:net), for the client's bounds:
 * each answers every connection the same broken way and stops when the peer goes away.
 */
import { createServer, type Server, type Socket } from 'node:net';

export type HostileCase = 'huge-declared' | 'endless-chunked' | 'trickle' | 'headers-then-silence' | 'silence' | 'invalid-framing';

export const HOSTILE_CASES: Record<HostileCase, string> = {
  'huge-declared': 'Content-Length: 2 GiB, then zeros as fast as the peer reads',
  'endless-chunked': 'chunked body of 64 KiB chunks that never ends',
  trickle: 'Content-Length: 1000, one byte every second',
  'headers-then-silence': 'a complete head, then not one body byte',
  silence: 'accepts the connection, never answers',
  'invalid-framing': 'two different Content-Length headers and a bogus chunk',
};

const HEAD = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n';

/** Writes `chunk` as fast as the peer reads, until it goes away. */
function flood(socket: Socket, chunk: Buffer | string): void {
  const pump = (): void => {
    while (!socket.destroyed && socket.write(chunk)) { /* keep writing until the buffer is full */ }
    if (!socket.destroyed) socket.once('drain', pump);
  };
  pump();
}

/** Answers on `socket` the broken way `kind` names (the request head is in). */
export function answer(kind: HostileCase, socket: Socket, timers: Set<NodeJS.Timeout>): void {
  switch (kind) {
    case 'huge-declared':
      socket.write(`${HEAD}Content-Length: ${2 * 1024 ** 3}\r\n\r\n`);
      return flood(socket, Buffer.alloc(64 * 1024));
    case 'endless-chunked': {
      const data = Buffer.alloc(64 * 1024, 0x61);
      socket.write(`${HEAD}Transfer-Encoding: chunked\r\n\r\n`);
      return flood(socket, Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]));
    }
    case 'trickle': {
      socket.write(`${HEAD}Content-Length: 1000\r\n\r\n`);
      const t = setInterval(() => socket.destroyed ? clearInterval(t) : socket.write(' '), 1000);
      timers.add(t);
      return;
    }
    case 'headers-then-silence':
      socket.write(`${HEAD}Content-Length: 10\r\n\r\n`);
      return;
    case 'silence':
      return;
    case 'invalid-framing':
      socket.write(`${HEAD}Content-Length: 5\r\nContent-Length: 7\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n`);
      return;
  }
}

export interface RunningHostile {
  url: string;
  close(): Promise<void>;
}

export async function startHostile(kind: HostileCase): Promise<RunningHostile> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    // Answer once the request head is in (any data), as a server would.
    socket.once('data', () => answer(kind, socket, timers));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Standalone: `node --import tsx test/client/hostile-servers.ts <case>` prints the URL and serves until killed. */
if (import.meta.url === `file://${process.argv[1]}`) {
  const h = await startHostile(process.argv[2] as HostileCase);
  console.log(h.url);
}
