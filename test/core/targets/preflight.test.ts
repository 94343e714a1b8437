/** The preflight of `run` and `load`: one request, exit 3 (HPS_ERR_TARGET_*) in one line for an unreachable or garbage target. */
import http from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAllPools } from '../../../core/client.ts';
import { HarnessError } from '../../../core/errors.ts';
import type { Profile } from '../../../core/profile.ts';
import { preflight } from '../../../core/targets/preflight.ts';
import { freePort } from '../../../service/harness/main/embedded.ts';

const KEY = 'pt_test_sk_preflightsecret0123';
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeAllPools();
  await close?.();
  close = undefined;
});

async function serve(answer: (res: http.ServerResponse) => void): Promise<string> {
  const s = http.createServer((_req, res) => answer(res));
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  close = () => new Promise((r) => s.close(() => r()));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

const profile = (
  base_url: string,
  timeout?: number,
): Profile => ({ base_url, keys: { test: KEY }, ...(timeout ? { probes: { request_timeout_ms: timeout } } : {}) }) as Profile;
const failure = (p: Promise<unknown>) => p.then(() => { throw new Error('preflight passed'); }, (e: unknown) => e as HarnessError);

describe('preflight', () => {
  it('passes a target answering JSON', async () => {
    const url = await serve((res) => res.writeHead(
      200,
      { 'content-type': 'application/json' },
    ).end('{"object":"list","data":[],"has_more":false}'));
    await expect(preflight(profile(url))).resolves.toEqual([]);
  });

  it('a refused connection: HPS_ERR_TARGET_REFUSED, exit 3, "could not be reached", what to check', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const e = await failure(preflight(profile(url)));
    expect(e).toBeInstanceOf(HarnessError);
    expect([e.code, e.exitCode]).toEqual(['HPS_ERR_TARGET_REFUSED', 3]);
    expect(e.message).toMatch(new RegExp(`^target ${url} could not be reached: `));
    expect(e.message).toMatch(/nothing accepts connections .*check the URL \(the URL, --base-url, base_url, or proxy.s --upstream\)/);
  });

  it("a silent target: the profile's deadline, HPS_ERR_TARGET_TIMEOUT, \"did not answer usably\"", async () => {
    const sockets = new Set<Socket>();
    const s: Server = createServer((socket) => void sockets.add(socket)); // accepts, never answers
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    close = () => new Promise((r) => {
      for (const socket of sockets) socket.destroy();
      s.close(() => r());
    });
    const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
    const started = performance.now();
    const e = await failure(preflight(profile(url, 400)));
    expect(performance.now() - started).toBeLessThan(15_000); // 400 ms × 4 attempts (a read is retried), back-offs, the circuit's pause
    expect([e.code, e.exitCode]).toEqual(['HPS_ERR_TARGET_TIMEOUT', 3]);
    expect(e.message).toMatch(new RegExp(`^target ${url} did not answer usably: `));
  });

  it('a target answering something that is not JSON: HPS_ERR_TARGET_GARBAGE naming the status and the start of the body, never the key', async () => {
    const url = await serve((res) => res.writeHead(502, { 'content-type': 'text/html' }).end(`<html>bad gateway ${KEY}</html>`));
    const e = await failure(preflight(profile(url)));
    expect([e.code, e.exitCode]).toEqual(['HPS_ERR_TARGET_GARBAGE', 3]);
    expect(e.message).toMatch(new RegExp(`^target ${url} answered GET /v1/payments with 502 and a body that is not JSON \\("<html>bad gateway `));
    expect(e.message).not.toContain(KEY);
  });
});

describe('preflight: a declared key that behaves as the spec forbids is a finding for its rule, not a profile error (exit 2)', () => {
  const REVOKED = 'pt_test_sk_revokedkey0123456789';
  const WRITE_ONLY = 'pt_test_sk_writeonly0123456789';
  const LIVE_ROW = '{"object":"list","data":[{"object":"payment","livemode":true}],"has_more":false}';
  const list = (
    res: http.ServerResponse,
    body = '{"object":"list","data":[],"has_more":false}',
  ) => res.writeHead(200, { 'content-type': 'application/json' }).end(body);

  async function serveByKey(answer: (key: string, res: http.ServerResponse) => void): Promise<string> {
    const s = http.createServer((req, res) => answer(String(req.headers.authorization ?? '').replace(/^Bearer /, ''), res));
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    close = () => new Promise((r) => s.close(() => r()));
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  }

  it('the revoked key answered 200 and the write-only key could read: AUTH-REVOKED-KEY and AUTH-READ-SCOPE-REQUIRED, "or the profile is wrong", never the key', async () => {
    const url = await serveByKey((_k, res) => list(res));
    const p = { base_url: url, keys: { test: KEY, test_revoked: REVOKED, test_write_only: WRITE_ONLY } } as Profile;
    const found = await preflight(p);
    expect(found.map((f) => [
      f.rule,
      f.field,
    ])).toEqual([['AUTH-READ-SCOPE-REQUIRED', 'keys.test_write_only'], ['AUTH-REVOKED-KEY', 'keys.test_revoked']]);
    expect(found.find((f) => f.rule === 'AUTH-REVOKED-KEY')!.message).toMatch(/^GET \/v1\/payments\?limit=1 with keys.test_revoked answered 200 .*a revoked key was served, where the spec answers 401 invalid_api_key/);
    expect(found.find((f) => f.rule === 'AUTH-REVOKED-KEY')!.profileWrong).toBe('keys.test_revoked is not a revoked key of this service');
    expect(JSON.stringify(found)).not.toContain(REVOKED);
  });

  it("a Test key whose list shows Live objects: ISO-TEST-LIVE-LIST (the key's pt_test_sk_ prefix says what it is)", async () => {
    const url = await serveByKey((_k, res) => list(res, LIVE_ROW));
    const [f, ...rest] = await preflight(profile(url));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      rule: 'ISO-TEST-LIVE-LIST',
      field: 'keys.test',
      profileWrong: 'keys.test is not a Test key with payments:read and payments:write',
    });
    expect(f!.message).toMatch(/the list of a Test key \(it starts with pt_test_sk_\) shows Live objects \(livemode true\)/);
  });

  it('reads every declared key side by side, and judges the answers in the order of the fields, whatever order they come in', async () => {
    const READ_ONLY = 'pt_test_sk_readonlyrotated01234';
    const OTHER = 'pt_test_sk_otherbusiness012345';
    const refused = new Set([READ_ONLY, OTHER]);
    const answer = (k: string, res: http.ServerResponse) => (refused.has(k)
      ? res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"code":"invalid_api_key"}}')
      : list(res));
    // Each key's read is held until the three after the first contact have all arrived (or 2 s have
    // passed: reads one after another then fail below, slowly, never hang), then answered in the
    // reverse of the fields' order: no timing decides what is checked, however busy the machine.
    const held = new Map<string, http.ServerResponse>();
    let most = 0;
    const release = () => {
      for (const k of [OTHER, WRITE_ONLY, READ_ONLY]) {
        const res = held.get(k);
        if (res) answer(k, res);
      }
      held.clear();
    };
    const url = await serveByKey((k, res) => {
      if (k === KEY) return list(res);
      held.set(k, res);
      most = Math.max(most, held.size);
      if (held.size === 3) release();
      else setTimeout(() => held.get(k) === res && release(), 2_000);
    });
    const keys = { test: KEY, test_read_only: READ_ONLY, test_write_only: WRITE_ONLY, other_test: OTHER };
    const e = await failure(preflight({ base_url: url, keys } as Profile));
    // keys.test first, alone (the first contact); then the three others at once.
    expect(most).toBe(3);
    expect([e.code, e.exitCode]).toEqual(['HPS_ERR_PROFILE_KEY', 2]);
    // Both refused keys, in the fields' order (test_read_only before other_test), though other_test was answered first.
    expect(e.message).toMatch(/^keys\.test_read_only: .*; keys\.other_test: /);
  });

  it('a key that should work and is refused stays configuration trouble: exit 2 naming the field', async () => {
    const url = await serveByKey((
      k,
      res,
    ) => (k === KEY ? list(res) : res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"code":"invalid_api_key"}}')));
    const e = await failure(preflight({
      base_url: url,
      keys: { test: KEY, test_read_only: 'pt_test_sk_readonlyrotated01234' },
    } as Profile));
    expect([e.code, e.exitCode]).toEqual(['HPS_ERR_PROFILE_KEY', 2]);
    expect(e.message).toMatch(/^keys\.test_read_only: the service answered 401 invalid_api_key .*is the key current\?/);
  });
});
