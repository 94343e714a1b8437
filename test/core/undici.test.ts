/**
 * core/undici.ts loads undici's parts from their own modules: the shapes the project relies on,
 * checked against a local server, so an upgrade of undici that moves them fails here first.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as Full from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, Client, EnvHttpProxyAgent, Pool, request } from '../../core/undici.ts';

let server: Server;
let origin = '';

beforeAll(async () => {
  server = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(`${req.method} ${req.url}`));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('core/undici.ts', () => {
  it('exports the same classes as undici\'s index', () => {
    expect(Agent).toBe(Full.Agent);
    expect(Client).toBe(Full.Client);
    expect(Pool).toBe(Full.Pool);
    expect(EnvHttpProxyAgent).toBe(Full.EnvHttpProxyAgent);
  });

  it('request(url) through the global dispatcher, and through a given one, with its query and method', async () => {
    const viaGlobal = await request(`${origin}/a?b=1`);
    expect(viaGlobal.statusCode).toBe(200);
    expect(await viaGlobal.body.text()).toBe('GET /a?b=1');
    const pool = new Pool(origin, { connections: 1 });
    try {
      const viaPool = await request(new URL('/x', origin), { dispatcher: pool, method: 'POST', body: '{}' });
      expect(await viaPool.body.text()).toBe('POST /x');
      // A dispatcher's own request() (undici's index adds it to every dispatcher; so does core/undici.ts).
      const direct = await pool.request({ path: '/z', method: 'GET' });
      expect(await direct.body.text()).toBe('GET /z');
    } finally {
      await pool.close();
    }
  });

  it('refuses what undici\'s request refuses', () => {
    expect(() => request(origin, { agent: {} } as never)).toThrow(/opts.agent/);
    expect(() => request('' as never)).toThrow(/invalid url/);
  });
});
