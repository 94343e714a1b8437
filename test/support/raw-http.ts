/**
 * Raw bytes to a server and its raw answer, for requests no HTTP client would send (a malformed
 * request line, a bare LF, a header without a colon): the socket is ended after writing, and the
 * answer is everything read until the server closes.
 */
import net from 'node:net';

export function rawExchange(baseUrl: string, bytes: string | Buffer): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
  });
}
