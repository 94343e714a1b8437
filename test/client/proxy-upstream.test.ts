/**
 * The proxy judges only what the application did (issue: `proxy` blamed the app for the service).
 * Before relaying it checks its upstream with `run`'s preflight: unreachable is exit 3 in one line,
 * a base URL ending in /v1 gets run's hint, a refused HPS_API_KEY is exit 2 naming it. A failure of
 * the upstream itself during the relay (refused, reset, a 5xx without the API's error envelope) is
 * never evidence against the application: the retry rules it would have exercised are not tried,
 * naming it, the verdict `incomplete`, never `not_conformant`; nothing relayed at all is exit 3.
 * The application here is a correct client: it re-sends a create four times under one key, then
 * gives up.
 */
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import type http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../catalogue/report/model.ts';
import { listenLoopback, type LoopbackServer } from '../../core/loopback-server.ts';
import { PACKAGE_ROOT } from '../../core/package-root.ts';
import { runProxy } from '../../merchant/client/proxy-run.ts';
import { runChild } from '../support/run-child.ts';

const KEY = 'pt_test_sk_Upstream0Test0Key0000001';
const NOT_TRIED = 'not tried: the upstream (the service) failed, not the application: ';
const work = mkdtempSync(join(tmpdir(), 'hps-proxy-up-'));
const APP = join(work, 'app.mjs');
writeFileSync(APP, `
const base = process.env.HPS_BASE_URL;
const auth = { authorization: 'Bearer ' + process.env.HPS_API_KEY };
if (!process.env.SKIP_LIST) {
  const list = await fetch(base + '/v1/payments?limit=2', { headers: auth });
  console.log('list ' + list.status);
  await list.text();
}
for (let attempt = 1; attempt <= 4; attempt++) {
  try {
    const r = await fetch(base + '/v1/payments', {
      method: 'POST',
      headers: { ...auth, 'idempotency-key': 'order-1', 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '10.00', currency: 'EUR' }),
    });
    await r.text();
    if (r.status < 500) { console.log('created ' + r.status); process.exit(0); }
    console.log('attempt ' + attempt + ': ' + r.status);
  } catch (e) {
    console.log('attempt ' + attempt + ': ' + (e.cause?.code ?? e.message));
  }
  await new Promise((r) => setTimeout(r, 50));
}
console.log('gave up after 4 attempts');
process.exit(1);
`);

const servers: LoopbackServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

/**
 * A stand-in for the service: lists answer in the API's shape (a 401 without the key, a 404 envelope
 * elsewhere); `dieOn` names the list path after whose answer it stops listening; `createAnswer`
 * what a create gets.
 */
async function fakeApi(o: { dieOn?: string; createAnswer?: (res: http.ServerResponse) => void } = {}): Promise<LoopbackServer> {
  const json = (res: http.ServerResponse, status: number, body: unknown) => void res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify(body));
  // Once the `dieOn` answer is out, the service is gone: a request already on a kept-alive connection is reset, and the server
  // stops listening (no timing decides which: a create never reaches a live service after the list).
  let dead = false;
  const server: LoopbackServer = await listenLoopback(async (req, res) => {
    if (dead) return void req.socket.destroy();
    req.resume();
    const path = req.url ?? '/';
    if (req.headers.authorization !== `Bearer ${KEY}`) return json(res, 401, { error: { code: 'invalid_api_key', message: 'no' } });
    if (req.method === 'GET' && path.startsWith('/v1/payments?')) {
      if (path === o.dieOn) {
        res.on('finish', () => {
          dead = true;
          void server.close();
        });
      }
      return json(res, 200, { object: 'list', data: [], has_more: false });
    }
    if (req.method === 'POST' && path === '/v1/payments' && o.createAnswer) return o.createAnswer(res);
    return json(res, 404, { error: { code: 'not_found', message: 'No such API route.' } });
  });
  servers.push(server);
  return server;
}

async function deadPort(): Promise<string> {
  const s = await listenLoopback(async () => {});
  await s.close();
  return s.url;
}

/** Async (support/run-child.ts): the stand-in service answers from this process while the command runs. */
const cli = (args: string[], env: Record<string, string> = {}) => runChild(
  process.execPath,
  [join(PACKAGE_ROOT, 'bin/hps-conformance.mjs'), 'proxy', ...args],
  { env: { ...process.env, HPS_API_KEY: KEY, ...env }, timeoutMs: 60_000 },
);

async function proxied(upstream: string, env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'hps-proxy-up-'));
  const lines: string[] = [];
  const result = await runProxy({
    upstream, run: `node ${APP}`, env: { HPS_API_KEY: KEY, ...env }, reportDir: dir, log: (l) => lines.push(l), live: () => {},
  });
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
  return { result, report, lines, rule: (id: string) => report.rules.find((r) => r.id === id)! };
}

describe('proxy: the upstream checked before relaying, as run\'s preflight', () => {
  it('a dead upstream: exit 3, one line naming it, before the application runs (no not_conformant report)', async () => {
    const dir = join(work, 'dead');
    const r = await cli(['--upstream', await deadPort(), '--report', dir, '--run', `node ${APP}`]);
    expect(r.status).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^hps-conformance: upstream http:\/\/127\.0\.0\.1:\d+ could not be reached: .*ECONNREFUSED/);
    expect(existsSync(join(dir, 'report.json'))).toBe(false);
  }, 60_000);

  it('--upstream ending in /v1: exit 3 with run\'s hint, in the proxy\'s words', async () => {
    const api = await fakeApi();
    const r = await cli(['--upstream', `${api.url}/v1`, '--report', join(work, 'v1'), '--duration', '1s']);
    expect(r.status).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`no /v1 route answers like the API at ${api.url}/v1: GET ${api.url}/v1/v1/payments?limit=1 ` +
      'with HPS_API_KEY answered 404');
    expect(r.stderr).toContain('--upstream ends in /v1, and the application adds /v1 itself: drop it from --upstream.');
  }, 60_000);

  it('an HPS_API_KEY the upstream refuses: exit 2 naming it, the key never printed', async () => {
    const api = await fakeApi();
    const wrong = 'pt_test_sk_Wrong0Key0Wrong0Key000001';
    const r = await cli(['--upstream', api.url, '--report', join(work, 'key'), '--duration', '1s'], { HPS_API_KEY: wrong });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^hps-conformance: HPS_API_KEY: the service answered 401 invalid_api_key to GET \/v1\/payments\?limit=1; /);
    expect(r.stderr).toContain('is the key current?');
    expect(r.stderr).not.toContain(wrong.slice(11, 23));
  }, 60_000);
});

describe('proxy: the upstream failing during the relay is never the application\'s fault', () => {
  it('dies after the check: nothing relayed, exit 3, the retry rules not tried naming the failure, verdict incomplete', async () => {
    const api = await fakeApi({ dieOn: '/v1/payments?limit=1' });
    const { result, report, lines, rule } = await proxied(api.url, { SKIP_LIST: '1' });
    expect(report.verdict).toBe('incomplete');
    expect(result.exitCode).toBe(3);
    const retry = rule('CLIENT-RETRY-TRANSIENT');
    expect(retry.status).toBe('skip');
    expect(retry.reason).toContain(`${NOT_TRIED}4 exchange(s) the upstream failed, the first #1 POST /v1/payments: no answer from ` +
      'the upstream (');
    expect(retry.reason).toContain('ECONNREFUSED');
    expect(rule('CLIENT-SAME-IDEMPOTENCY-KEY').status).toBe('skip');
    expect(lines.some((l) => /^proxy: the upstream failed 4 of 4 exchanges itself .*nothing could be relayed \(exit 3\)$/.test(l)))
      .toBe(true);
    expect(lines).toContain('  | gave up after 4 attempts');
  }, 60_000);

  it('dies mid-run: the exchanges after are not tried, the verdict incomplete (exit 6), never not_conformant', async () => {
    const api = await fakeApi({ dieOn: '/v1/payments?limit=2' });
    const { result, report, lines, rule } = await proxied(api.url);
    expect(lines).toContain('  | list 200');
    expect(report.verdict).toBe('incomplete');
    expect(result.exitCode).toBe(6);
    expect(rule('CLIENT-RETRY-TRANSIENT').status).toBe('skip');
    expect(rule('CLIENT-RETRY-TRANSIENT').reason).toContain(`${NOT_TRIED}4 exchange(s) the upstream failed`);
    expect(report.rules.filter((r) => r.status === 'fail')).toEqual([]);
    expect(report.incomplete_because?.join('\n')).toMatch(/CLIENT-RETRY-TRANSIENT not proven \(SKIP\): not tried: the upstream/);
  }, 60_000);

  it('a 502 that is not the API\'s error envelope (a gateway before a dead service) is the upstream\'s failure too', async () => {
    const badGateway = (res: http.ServerResponse) => void res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad Gateway</h1>');
    const api = await fakeApi({ createAnswer: badGateway });
    const { result, report, rule } = await proxied(api.url);
    expect(report.verdict).toBe('incomplete');
    expect(result.exitCode).toBe(6);
    const reason = rule('CLIENT-RETRY-TRANSIENT').reason;
    expect(reason).toContain('#2 POST /v1/payments: answered 502 without the API\'s error envelope (text/html)');
  }, 60_000);
});

describe('proxy: --upstream with user-info', () => {
  it('the password is in no line printed and no file written', async () => {
    const created = (res: http.ServerResponse) => void res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":"pay_1"}');
    const api = await fakeApi({ createAnswer: created });
    const password = 'Upstream0Passw0rd0Secret';
    const { result, lines } = await proxied(api.url.replace('http://', `http://merchant:${password}@`));
    expect(lines.join('\n')).not.toContain(password);
    for (const f of ['report.json', 'service/report.json', 'traffic.har', 'report.html', 'summary.md']) {
      expect(readFileSync(join(result.reportDir, f), 'utf8'), f).not.toContain(password);
    }
    expect(lines.some((l) => /^command: exit 0 after/.test(l))).toBe(true);
    expect(lines.filter((l) => l.startsWith('proxy: the upstream failed'))).toEqual([]);
  }, 60_000);
});
