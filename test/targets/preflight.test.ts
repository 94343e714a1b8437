/** The preflight of `run` and `load`: one request, exit 3 (HPS_ERR_TARGET_*) in one line for an unreachable or garbage target. */
import http from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAllPools } from '../../core/client.ts';
import { HarnessError } from '../../core/errors.ts';
import type { Profile } from '../../core/profile.ts';
import { preflight } from '../../targets/preflight.ts';
import { freePort } from '../../targets/embedded.ts';

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

const profile = (base_url: string, timeout?: number): Profile => ({ base_url, keys: { test: KEY }, ...(timeout ? { probes: { request_timeout_ms: timeout } } : {}) }) as Profile;
const failure = (p: Promise<void>) => p.then(() => { throw new Error('preflight passed'); }, (e: unknown) => e as HarnessError);

describe('preflight', () => {
  it('passes a target answering JSON', async () => {
    const url = await serve((res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[],"has_more":false}'));
    await expect(preflight(profile(url))).resolves.toBeUndefined();
  });

  it('an unreachable target: HPS_ERR_TARGET_UNREACHABLE, exit 3, "could not be reached"', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const e = await failure(preflight(profile(url)));
    expect(e).toBeInstanceOf(HarnessError);
    expect([e.code, e.exitCode]).toEqual(['HPS_ERR_TARGET_UNREACHABLE', 3]);
    expect(e.message).toMatch(new RegExp(`^target ${url} could not be reached: `));
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
