/**
 * The client does not keep a connection idle long enough for a target to close it under a
 * request. A target like uvicorn closes an idle connection after 5 s and announces no
 * `Keep-Alive: timeout=N`: a request sent as it closes meets a reset (an ERROR the target never
 * answered). With no hint, the client drops idle connections after IDLE_KEEP_ALIVE_MS (4 s).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, closeAllPools, IDLE_KEEP_ALIVE_MS } from '../../core/client.ts';

const SERVER_IDLE_MS = 5_000;

describe('idle connections without a Keep-Alive hint', () => {
  let server: http.Server;
  let url = '';
  let connections = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      res.on('finish', () => req.socket.setTimeout(SERVER_IDLE_MS, () => req.socket.destroy()));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    server.keepAliveTimeout = 0; // no Keep-Alive header: the idle time-out above is unannounced
    server.on('connection', (socket) => {
      connections += 1;
      socket.setTimeout(0);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await closeAllPools();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it(`reuses a fresh connection, and opens a new one after ${IDLE_KEEP_ALIVE_MS} ms idle, before the target's unannounced ${SERVER_IDLE_MS} ms`, async () => {
    expect(IDLE_KEEP_ALIVE_MS).toBeLessThan(SERVER_IDLE_MS);
    const client = new Client({ baseUrl: url, timeoutMs: 2_000 });
    const get = async () => {
      const res = await client.request({ method: 'GET', path: '/v1/payments', key: 'pt_test_sk_x' });
      expect(res.headers['keep-alive']).toBeUndefined(); // the idle time-out is not announced
      return res.status;
    };
    for (let i = 0; i < 3; i++) expect(await get()).toBe(200);
    const warm = connections; // undici's pool may open a second one for the second request
    for (let i = 0; i < 3; i++) expect(await get()).toBe(200);
    expect(connections, 'fresh connections are reused').toBe(warm);
    await new Promise((resolve) => setTimeout(resolve, IDLE_KEEP_ALIVE_MS + 400));
    expect(await get()).toBe(200);
    expect(connections, 'a connection idle past IDLE_KEEP_ALIVE_MS is not reused').toBe(warm + 1);
  }, 20_000);
});
