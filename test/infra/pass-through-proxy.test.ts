/**
 * The pass-through proxy fixture itself: it must not manufacture failures the service never
 * answered. An upstream socket left idle past the upstream's `Keep-Alive: timeout=N` hint (less
 * Node's 1 s margin) is dropped, so a request is never sent on a socket the upstream is closing
 * (a reset there is a 502 from the proxy; CI saw one on a create).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPassThroughProxy, type RunningProxy } from './pass-through-proxy.ts';

describe('pass-through proxy fixture', () => {
  let upstream: http.Server;
  let proxy: RunningProxy;
  let connections = 0;
  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end('{}'));
    });
    upstream.keepAliveTimeout = 2_000; // announces Keep-Alive: timeout=2
    upstream.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    proxy = await startPassThroughProxy(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
  });
  afterAll(async () => {
    await proxy?.close();
    upstream?.closeAllConnections();
    await new Promise((resolve) => upstream?.close(resolve));
  });

  async function post(): Promise<number> {
    const res = await fetch(`${proxy.url}/v1/payments`, { method: 'POST', body: '{}' });
    await res.text();
    return res.status;
  }

  it('reuses an upstream socket while fresh, and drops it once idle past the upstream hint less 1 s', async () => {
    expect(await post()).toBe(201);
    expect(await post()).toBe(201);
    expect(connections).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1_400)); // past 2 s - 1 s, before the upstream's 2 s
    expect(await post()).toBe(201);
    expect(connections).toBe(2);
  });
});
