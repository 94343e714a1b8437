import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAllPools, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS, type Exchange } from '../../core/client.ts';
import { clientForProfile } from '../../core/client-for-profile.ts';
import type { Profile } from '../../core/profile.ts';

const TOKEN = 'ctl-0123456789abcdefXYZ';
let server: http.Server;
let url = '';

beforeAll(async () => {
  // Echoes what it was sent: a client that forgot the profile's secrets would keep them in its transcript.
  server = http.createServer((
    req,
    res,
  ) => res.writeHead(
    200,
    { 'content-type': 'application/json' },
  ).end(JSON.stringify({ path: req.url, auth: req.headers.authorization ?? null })));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await closeAllPools();
  await new Promise((r) => server.close(r));
});

const profile = (extra: Partial<Profile> = {}): Profile => ({
  base_url: 'http://127.0.0.1:9',
  keys: { test: 'pt_test_sk_abcdefghijklmnop' },
  ...extra,
}) as Profile;

describe('clientForProfile', () => {
  it("takes the profile's bounds, or the defaults", () => {
    const bounded = clientForProfile(profile({ probes: { request_timeout_ms: 1234, max_response_bytes: 4321 } }));
    expect([bounded.baseUrl, bounded.timeoutMs, bounded.maxResponseBytes]).toEqual(['http://127.0.0.1:9', 1234, 4321]);
    const plain = clientForProfile(profile());
    expect([plain.timeoutMs, plain.maxResponseBytes]).toEqual([DEFAULT_TIMEOUT_MS, DEFAULT_MAX_RESPONSE_BYTES]);
  });

  it('talks to another URL of the profile when told, redacts every secret of the profile, reports each exchange', async () => {
    const seen: Exchange[] = [];
    const client = clientForProfile(profile({ control: { url, token: TOKEN } }), { baseUrl: url, onExchange: (ex) => seen.push(ex) });
    const res = await client.request({ method: 'POST', path: '/payments/x/reverse', authorization: `Bearer ${TOKEN}` });
    expect(res.json.auth).toBe(`Bearer ${TOKEN}`); // it did reach the control URL with the token
    expect(seen).toHaveLength(1);
    expect(JSON.stringify(client.transcript)).not.toContain(TOKEN);
    expect(JSON.stringify(seen)).not.toContain(TOKEN);
  });
});
