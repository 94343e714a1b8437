/**
 * The gateway headers go to base_url's origin and nowhere else (not to another URL of the profile,
 * not to a proxy's CONNECT unless they are Proxy-* headers); a value from ${ENV} is a secret in
 * every record; bad flags and profiles are one line, exit 2.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientForProfile } from '../../core/client-for-profile.ts';
import { closeAllPools } from '../../core/client.ts';
import { HarnessError } from '../../core/errors.ts';
import { checkNetwork, dispatcherFor } from '../../core/network.ts';
import { parseProfile, profileSecrets } from '../../core/profile.ts';
import { profileWithoutSecrets } from '../../results/verdict/certificate.ts';
import { networkFromFlags } from '../../cli/network-flags.ts';

const KEY = 'pt_test_sk_networktest0000';
const GW = 'gw-secret-0d9e8c7b6a';

interface Seen {
  url: string;
  seen: http.IncomingHttpHeaders[];
  close(): Promise<void>;
}

/** A loopback server that records the headers of every request (and of every CONNECT, answered 403). */
async function recorder(): Promise<Seen> {
  const seen: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[],"has_more":false}');
  });
  server.on('connect', (req, socket) => {
    seen.push({ ...req.headers, ':connect': req.url ?? '' });
    socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

const profileText = (base: string) => JSON.stringify({
  base_url: base,
  keys: { test: KEY },
  network: { headers: { 'X-Gateway-Key': '${HPS_GW}', 'X-Team': 'payments', 'Proxy-Authorization': 'Basic cHJveHk6cHJveHlwYXNz' } },
});

describe('network: headers to the target only, secrets redacted', () => {
  let target: Seen;
  let other: Seen;
  beforeAll(async () => {
    target = await recorder();
    other = await recorder();
  });
  afterAll(async () => {
    await closeAllPools();
    await target.close();
    await other.close();
  });

  it('sent on every request to base_url; not to another URL of the profile; Proxy-* never to the target', async () => {
    const profile = parseProfile(profileText(target.url), 'p.json', { HPS_GW: GW });
    const c = clientForProfile(profile);
    await c.listPayments(KEY);
    await c.getPayment(KEY, 'pay_1');
    await clientForProfile(profile, { baseUrl: other.url }).listPayments(KEY);
    expect(target.seen).toHaveLength(2);
    for (const h of target.seen) {
      expect(h['x-gateway-key']).toBe(GW);
      expect(h['x-team']).toBe('payments');
      expect(h['proxy-authorization']).toBeUndefined();
    }
    expect(other.seen).toHaveLength(1);
    expect(other.seen[0]!['x-gateway-key']).toBeUndefined();
    // The evidence names the header, never its value; a plain value stays readable.
    const recorded = JSON.stringify(c.transcript);
    expect(recorded).not.toContain(GW);
    expect(c.transcript[0]!.request.headers['x-gateway-key']).toMatch(/^‹\d+ chars, sha256:/);
    expect(c.transcript[0]!.request.headers['x-team']).toBe('payments');
    expect(profileSecrets(profile)).toContain(GW);
    expect(JSON.stringify(profileWithoutSecrets(profile))).not.toContain(GW);
  });

  it('through a proxy: the CONNECT carries the Proxy-* header and no target header', async () => {
    const profile = parseProfile(profileText('https://127.0.0.1:9'), 'p.json', { HPS_GW: GW });
    const saved = process.env.HTTPS_PROXY;
    process.env.HTTPS_PROXY = other.url;
    const d = dispatcherFor('https://127.0.0.1:9', profile.network, 1);
    try {
      await d.request({
        origin: 'https://127.0.0.1:9',
        path: '/v1/payments',
        method: 'GET',
        headers: { 'x-gateway-key': GW },
      }).catch(() => undefined);
    } finally {
      if (saved === undefined) delete process.env.HTTPS_PROXY;
      else process.env.HTTPS_PROXY = saved;
      await d.close();
    }
    const connect = other.seen.find((h) => h[':connect'] !== undefined);
    expect(connect?.[':connect']).toBe('127.0.0.1:9');
    expect(connect?.['proxy-authorization']).toBe('Basic cHJveHk6cHJveHlwYXNz');
    expect(connect?.['x-gateway-key']).toBeUndefined();
  });
});

describe('network: flags and profile fields checked before any request', () => {
  const usage = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return e instanceof HarnessError ? `${e.exitCode} ${e.message}` : String(e);
    }
    return 'no error';
  };

  it("--header 'Name: ${VAR}' is read from the environment and redacted; the replay line keeps ${VAR}", () => {
    const r = networkFromFlags(
      { header: ['X-Gateway-Key: ${HPS_GW}', 'X-Team: payments'], 'client-cert': 'c.pem', 'client-key': 'k.pem' },
      { HPS_GW: GW },
    );
    expect(r.network).toEqual({
      headers: { 'X-Gateway-Key': GW, 'X-Team': 'payments' },
      redacted_headers: ['X-Gateway-Key'],
      client_cert: 'c.pem',
      client_key: 'k.pem',
    });
    expect(r.replayArgs.join(' ')).toBe("--header='X-Gateway-Key: ${HPS_GW}' --header='X-Team: payments' --client-cert='c.pem' --client-key='k.pem'");
  });

  it('bad headers and TLS files are one line, exit 2, never the value', () => {
    expect(usage(() => networkFromFlags({ header: ['no colon'] }, {}))).toMatch(/^2 --header: give 'Name: value'/);
    expect(usage(() => networkFromFlags({ header: ['X-Gw: ${HPS_UNSET_VAR}'] }, {}))).toMatch(/^2 .*HPS_UNSET_VAR is not set/);
    expect(usage(() => checkNetwork(
      { headers: { Authorization: 'Bearer x' } },
      'p.json',
    ))).toMatch(/^2 p.json: network.headers.Authorization: the suite sets this header itself/);
    expect(usage(() => checkNetwork(
      { client_cert: '/nonexistent/c.pem' },
      'p.json',
    ))).toMatch(/^2 .*client_cert and network.client_key go together/);
    expect(usage(() => checkNetwork(
      { client_cert: '/nonexistent/c.pem', client_key: '/nonexistent/k.pem' },
      'p.json',
    ))).toMatch(/^2 network.client_cert: cannot read \/nonexistent\/c.pem \(ENOENT\)/);
    expect(usage(() => parseProfile(
      JSON.stringify({ base_url: 'http://x', keys: { test: KEY }, network: { headers: { 'Bad Name': 'v' } } }),
      'p.json',
    ))).toMatch(/^2 p.json: .*must be an HTTP header name/);
  });
});
