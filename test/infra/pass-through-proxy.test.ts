/**
 * The pass-through proxy fixture itself: it must not manufacture failures the service never
 * answered. An upstream socket left idle past the upstream's `Keep-Alive: timeout=N` hint (less
 * Node's 1 s margin) is dropped, so a request is never sent on a socket the upstream is closing
 * (a reset there is a 502 from the proxy; CI saw one on a create).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCountingServer, type CountingServer } from '../support/counting-server.ts';
import { startPassThroughProxy, type RunningProxy } from './pass-through-proxy.ts';

describe('pass-through proxy fixture', () => {
  let upstream: CountingServer;
  let proxy: RunningProxy;
  beforeAll(async () => {
    upstream = await startCountingServer({ keepAliveMs: 2_000, status: 201 }); // announces Keep-Alive: timeout=2
    proxy = await startPassThroughProxy(upstream.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await upstream?.close();
  });

  async function post(): Promise<number> {
    const res = await fetch(`${proxy.url}/v1/payments`, { method: 'POST', body: '{}' });
    await res.text();
    return res.status;
  }

  it('reuses an upstream socket while fresh, and drops it once idle past the upstream hint less 1 s', async () => {
    expect(await post()).toBe(201);
    expect(await post()).toBe(201);
    expect(upstream.connections).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1_400)); // past 2 s - 1 s, before the upstream's 2 s
    expect(await post()).toBe(201);
    expect(upstream.connections).toBe(2);
  });
});
