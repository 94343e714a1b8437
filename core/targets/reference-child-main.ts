/**
 * The embedded reference server of a load run, in its own process so that it never shares
 * the generator's event loop. It delivers its webhooks to a null receiver in this process
 * (204 to everything: the server does a real service's work, no retry piles up, nothing is
 * logged), prints its profile as one JSON line, and exits when its parent closes stdin.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startReferenceServer } from './reference-server.ts';

const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.statusCode = 204;
    res.end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
const { port } = receiver.address() as AddressInfo;
try {
  // The parent words the failure (startReferenceProcess): the reason alone crosses the pipe.
  const reference = await startReferenceServer({ webhookBaseUrl: `http://127.0.0.1:${port}` }, (reason) => reason);
  process.stdout.write(JSON.stringify({ profile: reference.profile }) + '\n');
} catch (e) {
  process.stdout.write(JSON.stringify({ error: (e as Error).message }) + '\n');
  process.exit(1);
}
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
process.stdin.on('close', () => process.exit(0));
