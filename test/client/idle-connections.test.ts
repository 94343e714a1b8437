/**
 * The client does not keep a connection idle long enough for a target to close it under a
 * request. A target like uvicorn closes an idle connection after 5 s and announces no
 * `Keep-Alive: timeout=N`: a request sent as it closes meets a reset (an ERROR the target never
 * answered). With no hint, the client drops idle connections after IDLE_KEEP_ALIVE_MS (4 s).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, closeAllPools } from '../../core/client.ts';
import { IDLE_KEEP_ALIVE_MS } from '../../core/keep-alive.ts';
import { startCountingServer, type CountingServer } from '../support/counting-server.ts';

const SERVER_IDLE_MS = 5_000;

describe('idle connections without a Keep-Alive hint', () => {
  let server: CountingServer;
  beforeAll(async () => {
    server = await startCountingServer({ silentIdleMs: SERVER_IDLE_MS });
  });
  afterAll(async () => {
    await closeAllPools();
    await server?.close();
  });

  it(`reuses a fresh connection, and opens a new one after ${IDLE_KEEP_ALIVE_MS} ms idle, before the target's unannounced ${SERVER_IDLE_MS} ms`, async () => {
    expect(IDLE_KEEP_ALIVE_MS).toBeLessThan(SERVER_IDLE_MS);
    const client = new Client({ baseUrl: server.url, timeoutMs: 2_000 });
    const get = async () => {
      const res = await client.request({ method: 'GET', path: '/v1/payments', key: 'pt_test_sk_x' });
      expect(res.headers['keep-alive']).toBeUndefined(); // the idle time-out is not announced
      return res.status;
    };
    for (let i = 0; i < 3; i++) expect(await get()).toBe(200);
    const warm = server.connections; // undici's pool may open a second one for the second request
    for (let i = 0; i < 3; i++) expect(await get()).toBe(200);
    expect(server.connections, 'fresh connections are reused').toBe(warm);
    await new Promise((resolve) => setTimeout(resolve, IDLE_KEEP_ALIVE_MS + 400));
    expect(await get()).toBe(200);
    expect(server.connections, 'a connection idle past IDLE_KEEP_ALIVE_MS is not reused').toBe(warm + 1);
  }, 20_000);
});
