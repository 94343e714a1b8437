/**
 * The proxy's bounds and its caution, on a real loopback upstream: a request body over 1 MiB is
 * refused 413 and never relayed; an answer over 8 MiB is not relayed (the application's connection
 * is dropped; traffic.har says why); a read not retried right after its failure FAILs for a client
 * that sends one request at a time, and is SKIP (never FAIL) for one with requests in parallel,
 * whose next request may be another flow's. Bad options are one line and exit 2.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { judgeClient } from '../../merchant/client/judge.ts';
import { PROXY_BOUNDS } from '../../merchant/client/proxy-app.ts';
import { runProxy } from '../../merchant/client/proxy-run.ts';
import { ProxyTraffic } from '../../merchant/client/proxy-traffic.ts';
import type { RecordedRequest } from '../../merchant/client/recorder.ts';
import { listenLoopback } from '../../core/loopback-server.ts';
import { PACKAGE_ROOT } from '../../core/package-root.ts';

describe('proxy bounds, on a loopback upstream', () => {
  it('refuses a request body over the bound (413, never relayed) and drops an answer over the bound, saying so in traffic.har', async () => {
    let relayed = 0;
    let checked = false;
    const upstream = await listenLoopback(async (req, res) => {
      req.resume();
      // The proxy's check of its upstream comes first (core/targets/preflight.ts): answered as the API would, without a key.
      if (!checked) return void (checked = true, res.writeHead(401, { 'content-type': 'application/json' })
        .end('{"error":{"code":"invalid_api_key","message":"no key"}}'));
      relayed++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(`{"pad":"${'x'.repeat(PROXY_BOUNDS.responseBodyBytes)}"}`);
    });
    const dir = mkdtempSync(join(tmpdir(), 'hps-proxy-bounds-'));
    let done = () => {};
    let url = '';
    const run = runProxy({
      upstream: upstream.url,
      reportDir: dir,
      stop: new Promise<void>((r) => (done = r)),
      log: (l) => (url ||= /proxy: (http:\/\/\S+)/.exec(l)?.[1] ?? ''),
      live: () => {},
    });
    while (!url) await new Promise((r) => setTimeout(r, 10));
    const big = await request(
      `${url}/v1/payments`,
      { method: 'POST', body: 'x'.repeat(PROXY_BOUNDS.requestBodyBytes + 1), headers: { 'content-type': 'application/json' } },
    );
    expect(big.statusCode).toBe(413);
    await big.body.text();
    expect(relayed).toBe(0);
    await expect(request(`${url}/v1/payments?limit=1`).then((r) => r.body.text())).rejects.toThrow();
    expect(relayed).toBe(1);
    done();
    const result = await run;
    await upstream.close();
    const har = JSON.parse(readFileSync(join(dir, 'traffic.har'), 'utf8'));
    expect(result.harEntries).toBe(1);
    expect(har.log.entries[0].response.status).toBe(0);
    expect(har.log.entries[0]._error).toMatch(/exceeded 8388608 bytes \(not relayed\)/);
  }, 60_000);
});

describe('proxy: a read not retried right after its failure', () => {
  function traffic(parallel: boolean): RecordedRequest[] {
    const t = new ProxyTraffic();
    let seq = 0;
    const send = (path: string, status: number) => {
      const head = { kind: 'read' as const, method: 'GET', path, key: undefined, seq: ++seq };
      const rec: RecordedRequest = {
        seq,
        at: '',
        arrivedMs: seq * 10,
        method: 'GET',
        path,
        kind: 'read',
        identity: t.identify('c', head),
        body: '',
      };
      t.arrived('c', rec);
      return () => {
        Object.assign(rec, { answeredMs: seq * 10 + 5, status }, status === 503 ? { injected: '503', source: 'service' } : {});
        t.settled('c', rec);
      };
    };
    if (parallel) {
      const other = send('/v1/payments/pay_1', 200); // another flow's read, in flight while the list fails
      send('/v1/payments?limit=5', 503)();
      other();
    } else send('/v1/payments?limit=5', 503)();
    send('/v1/payments/pay_2', 200)();
    send('/v1/payments?limit=5', 200)();
    return t.judged();
  }

  it('FAILs CLIENT-RETRY-TRANSIENT for a client sending one request at a time, and is SKIP for one with requests in parallel', () => {
    const one = judgeClient(traffic(false)).get('CLIENT-RETRY-TRANSIENT')!;
    expect(one.checks.map((c) => c.state)).toEqual(['fail']);
    expect(one.checks[0]!.message).toMatch(/met 503 \(the service's answer\) and was never retried; #\d+ was sent \d+ ms after #\d+ was answered on the same path after #\d+ GET \/v1\/payments\/pay_2 \(another operation in between\)/);
    const parallel = judgeClient(traffic(true)).get('CLIENT-RETRY-TRANSIENT')!;
    expect(parallel.checks.map((c) => c.state)).toEqual(['skip']);
    expect(parallel.skipReason).toMatch(/sends requests in parallel: which later read is its retry cannot be told from the wire/);
  });
});

describe('proxy command line', () => {
  const cli = (...args: string[]) => spawnSync(
    process.execPath,
    [join(PACKAGE_ROOT, 'bin/hps-conformance.mjs'), 'proxy', ...args],
    { encoding: 'utf8', timeout: 60_000 },
  );
  it('refuses a missing --report and an upstream that is not an http(s) URL: one line, exit 2', () => {
    const noReport = cli('--duration', '1s');
    expect(noReport.status).toBe(2);
    expect(noReport.stderr.trim().split('\n')).toHaveLength(1);
    expect(noReport.stderr).toContain('proxy needs --report DIR');
    const ftp = cli('--upstream', 'ftp://x', '--report', mkdtempSync(join(tmpdir(), 'hps-proxy-cli-')));
    expect(ftp.status).toBe(2);
    expect(ftp.stderr).toMatch(/--upstream "ftp:\/\/x": must be an http\(s\) URL/);
  }, 60_000);

  it('refuses a --report that is a file as run does: one line naming it, exit 2, no internal error', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'hps-proxy-cli-')), 'a-file');
    writeFileSync(file, '');
    const r = cli('--report', file, '--duration', '1s');
    expect(r.status).toBe(2);
    const line = `hps-conformance: --report ${file}: cannot be created or written (ENOTDIR); nothing was run`;
    expect(r.stderr.trim().split('\n')).toEqual([line]);
    expect(r.stdout).toBe('');
  }, 60_000);
});

describe('proxy stopped by SIGINT', () => {
  it('writes both reports and a complete traffic.har for the traffic so far, and exits by the verdict', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hps-proxy-sigint-'));
    const { spawn } = await import('node:child_process');
    const child = spawn(
      process.execPath,
      [join(PACKAGE_ROOT, 'bin/hps-conformance.mjs'), 'proxy', '--report', dir],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const deadline = Date.now() + 45_000;
    while (!/proxy: (http:\/\/\S+)/.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const url = /proxy: (http:\/\/\S+)/.exec(out)![1]!;
    const res = await request(`${url}/v1/payments?limit=1`, { headers: { authorization: 'Bearer pt_test_sk_notakey000000000000' } });
    expect(res.statusCode).toBe(401);
    await res.body.text();
    child.kill('SIGINT');
    const code = await exited;
    const client = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    expect(client.side).toBe('client');
    // Nothing a client rule judges was exercised: no verdict without evidence (exit 1 before the third verdict, 6 `incomplete` with it).
    expect(client.verdict).not.toBe('conformant');
    expect(code).toBe(client.verdict === 'incomplete' ? 6 : 1);
    expect(JSON.parse(readFileSync(
      join(dir, 'service', 'report.json'),
      'utf8',
    )).rules.find((r: { id: string }) => r.id === 'RESP-ERROR-ENVELOPE').status).toBe('pass');
    expect(JSON.parse(readFileSync(join(dir, 'traffic.har'), 'utf8')).log.entries).toHaveLength(1);
    expect(out).toMatch(/proxy: 1 exchanges from 1 client\(s\) · traffic\.har 1 entries/);
  }, 90_000);
});
