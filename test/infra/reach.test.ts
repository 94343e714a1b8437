/**
 * Reach what users reach (issue 32): a real forward proxy (tinyproxy, Debian) from HTTP_PROXY /
 * HTTPS_PROXY / NO_PROXY, and a real nginx (Debian) in front of the reference that demands a
 * client certificate from a throw-away CA and an API gateway's header. `run` goes through each
 * as a user's curl would; without the certificate or the header it does not reach the API
 * (exit 3), and the header's value (taken from ${ENV}) is in no report file.
 */
import { execFile } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningReference } from '../../references/service/index.ts';
import { freshReference } from './infra-run.ts';
import { missingInfraTools, startNginx, type RunningNginx } from './nginx.ts';
import { writeProfile } from './run-suite.ts';
import { expectLoadPasses, runLoad } from './run-load.ts';
import { missingProxyTool, startTinyproxy, type RunningProxy } from './tinyproxy.ts';

const BIN = resolve(import.meta.dirname, '../../bin/hps-conformance.mjs');
const GATEWAY_KEY = 'gw-7f3a9c1e5b2d8f4a6c0e';
const NO_PROXY_ENV = { HTTP_PROXY: '', HTTPS_PROXY: '', http_proxy: '', https_proxy: '', NO_PROXY: '', no_proxy: '' };

/** A client certificate signed by nginx's throw-away CA, and the directives that demand one and the gateway header. */
function mutualTls(dir: string): string {
  const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir, timeout: 20_000, stdio: 'pipe' });
  run([
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    'client.key',
    '-out',
    'client.csr',
    '-subj',
    '/CN=hps-conformance client',
  ]);
  run(['x509', '-req', '-in', 'client.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'client.pem', '-days', '1']);
  return `ssl_client_certificate ${join(
    dir,
    'ca.pem',
  )};\n    ssl_verify_client on;\n    if ($http_x_gateway_key != "${GATEWAY_KEY}") { return 403; }`;
}

interface Ran {
  code: number | null;
  output: string;
  dir: string;
}

function runCli(args: string[], env: Record<string, string>): Promise<Ran> {
  const dir = mkdtempSync(join(tmpdir(), 'hps-reach-'));
  return new Promise((done) => {
    execFile(process.execPath, [
      BIN,
      'run',
      ...args,
      '--rule',
      'AUTH-MISSING-KEY',
      '--seed=1',
      '--no-progress',
      '--report',
      dir,
    ], { env: { ...process.env, ...NO_PROXY_ENV, ...env }, timeout: 120_000 }, (err, stdout, stderr) => {
      done({ code: err ? ((err as { code?: number }).code ?? null) : 0, output: `${stdout}${stderr}`, dir });
    });
  });
}

const ruleStatus = (r: Ran): string | undefined => (JSON.parse(readFileSync(
  join(r.dir, 'report.json'),
  'utf8',
)) as { rules: { id: string; status: string }[] }).rules.find((x) => x.id === 'AUTH-MISSING-KEY')?.status;
const filesText = (dir: string): string => readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');

describe('reach what users reach: a forward proxy, a gateway header, mutual TLS', () => {
  const missing = missingInfraTools() ?? missingProxyTool();
  let ref: RunningReference;
  let nginx: RunningNginx;
  let proxy: RunningProxy;
  let tls: string[];
  let behindNginx: string;
  beforeAll(async () => {
    if (missing !== null) throw new Error(missing);
    ref = await freshReference();
    nginx = await startNginx(ref.url, mutualTls);
    proxy = await startTinyproxy();
    tls = ['--client-cert', join(nginx.dir, 'client.pem'), '--client-key', join(nginx.dir, 'client.key'), '--ca', nginx.caFile];
    behindNginx = writeProfile(ref.built.profileFor(nginx.url));
  }, 60_000);
  afterAll(async () => {
    await proxy?.close();
    await nginx?.close();
    await ref?.close();
  });

  it('HTTP_PROXY: every request goes through the proxy (absolute form); NO_PROXY exempts the host', async () => {
    const profile = writeProfile(ref.built.profileFor(ref.url));
    const through = await runCli(['--profile', profile], { HTTP_PROXY: proxy.url });
    expect(through.code, through.output).toBe(0);
    const port = new URL(ref.url).port;
    const seen = proxy.requests().filter((l) => l.includes(`http://127.0.0.1:${port}/v1/`));
    expect(seen.length).toBeGreaterThan(1); // the preflight and the rule's own requests
    const before = proxy.requests().length;
    const exempt = await runCli(['--profile', profile], { http_proxy: proxy.url, NO_PROXY: '127.0.0.1' });
    expect(exempt.code, exempt.output).toBe(0);
    expect(proxy.requests().length).toBe(before);
  }, 150_000);

  it('mutual TLS and the gateway header: reached with both; without the certificate or the header, exit 3', async () => {
    const header = ['--header', 'X-Gateway-Key: ${HPS_GATEWAY_KEY}'];
    const env = { HPS_GATEWAY_KEY: GATEWAY_KEY };
    const ok = await runCli(['--profile', behindNginx, ...tls, ...header], env);
    expect(ok.code, ok.output).toBe(0);
    expect(ruleStatus(ok)).toBe('pass');
    expect(filesText(ok.dir) + ok.output).not.toContain(GATEWAY_KEY);
    const noCert = await runCli(['--profile', behindNginx, '--ca', nginx.caFile, ...header], env);
    expect(noCert.code, noCert.output).toBe(3);
    const noHeader = await runCli(['--profile', behindNginx, ...tls], env);
    expect(noHeader.code, noHeader.output).toBe(3);
  }, 200_000);

  it('HTTPS_PROXY: a CONNECT tunnel through the proxy, mutual TLS and the header inside it', async () => {
    const before = proxy.requests().length;
    const r = await runCli(
      ['--profile', behindNginx, ...tls, '--header', 'X-Gateway-Key: ${HPS_GATEWAY_KEY}'],
      { HTTPS_PROXY: proxy.url, HPS_GATEWAY_KEY: GATEWAY_KEY },
    );
    expect(r.code, r.output).toBe(0);
    const connects = proxy.requests().slice(before);
    expect(connects.some((l) => l.startsWith(`CONNECT 127.0.0.1:${new URL(nginx.url).port}`))).toBe(true);
  }, 150_000);

  it('load through HTTPS_PROXY with the certificate and the header: every check passes, the proxy saw the tunnels', async () => {
    const before = proxy.requests().length;
    const load = await runLoad(
      behindNginx,
      { ...NO_PROXY_ENV, HTTPS_PROXY: proxy.url, HPS_GATEWAY_KEY: GATEWAY_KEY },
      [...tls, '--header', 'X-Gateway-Key: ${HPS_GATEWAY_KEY}'],
    );
    expectLoadPasses(load);
    expect(proxy.requests().slice(before).filter((l) => l.startsWith('CONNECT ')).length).toBeGreaterThanOrEqual(4);
  }, 150_000);

  it('the embedded reference is ours, on loopback: reached directly even with a proxy set (a dead one here)', async () => {
    const r = await runCli([], { HTTP_PROXY: 'http://127.0.0.1:9', HTTPS_PROXY: 'http://127.0.0.1:9' });
    expect(r.code, r.output).toBe(0);
  }, 150_000);

  it('receiver: the deliveries to a merchant\'s receiver go through HTTP_PROXY', async () => {
    const { startReferenceReceiver } = await import('../../references/receiver/server.ts');
    const secret = 'whsec_reachtest0123456789abcdef';
    const receiver = await startReferenceReceiver({ secret });
    try {
      const before = proxy.requests().length;
      const dir = mkdtempSync(join(tmpdir(), 'hps-reach-recv-'));
      const r = await new Promise<Ran>((done) => {
        execFile(
          process.execPath,
          [BIN, 'receiver', '--url', receiver.url, '--secret-env', 'HPS_RECV_SECRET', '--seed=1', '--report', dir],
          { env: { ...process.env, ...NO_PROXY_ENV, HTTP_PROXY: proxy.url, HPS_RECV_SECRET: secret }, timeout: 120_000 },
          (err, stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? null) : 0, output: `${stdout}${stderr}`, dir }),
        );
      });
      const seen = proxy.requests().slice(before).filter((l) => l.startsWith(`POST ${receiver.url}`));
      expect(seen.length, r.output).toBeGreaterThan(5);
    } finally {
      await receiver.close();
    }
  }, 150_000);

  it('receiver behind a gateway that demands a client certificate and its header: with both the deliveries and the inspection reach it, without the header none does; the header\'s value is in no report', async () => {
    const { startReferenceReceiver } = await import('../../references/receiver/server.ts');
    const secret = 'whsec_reachgateway0123456789abcd';
    const receiver = await startReferenceReceiver({ secret });
    const gate = await startNginx(new URL(receiver.url).origin, mutualTls);
    const viaGate = (u: string) => `${gate.url}${new URL(u).pathname}`;
    const receiverRun = (extra: string[]) => new Promise<Ran>((done) => {
      const dir = mkdtempSync(join(tmpdir(), 'hps-reach-gate-'));
      const args = [
        BIN,
        'receiver',
        '--url',
        viaGate(receiver.url),
        '--inspect-url',
        viaGate(receiver.inspectUrl),
        '--secret-env',
        'HPS_RECV_SECRET',
        '--seed=1',
        '--dedup-time-scale',
        '60',
        '--report',
        dir,
        '--client-cert',
        join(gate.dir, 'client.pem'),
        '--client-key',
        join(gate.dir, 'client.key'),
        '--ca',
        gate.caFile,
        ...extra,
      ];
      execFile(
        process.execPath,
        args,
        { env: { ...process.env, ...NO_PROXY_ENV, HPS_RECV_SECRET: secret, HPS_GATEWAY: GATEWAY_KEY }, timeout: 240_000 },
        (err, stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? null) : 0, output: `${stdout}${stderr}`, dir }),
      );
    });
    try {
      const statusOf = (
        r: Ran,
        id: string,
      ) => (JSON.parse(readFileSync(
        join(r.dir, 'report.json'),
        'utf8',
      )) as { rules: { id: string; status: string }[] }).rules.find((x) => x.id === id)?.status;
      const refused = await receiverRun([]);
      expect(refused.code, refused.output).not.toBe(0);
      expect(statusOf(refused, 'RECV-ACK-EVERY-TYPE'), 'the gateway answered 403 to every delivery').toBe('fail');
      const reached = await receiverRun(['--header', 'X-Gateway-Key: ${HPS_GATEWAY}']);
      expect(reached.code, reached.output).toBe(0);
      expect(statusOf(reached, 'RECV-ACK-EVERY-TYPE')).toBe('pass');
      // A processing rule passes only when the inspection, through the gateway too, showed the events.
      expect(statusOf(reached, 'RECV-DEDUPLICATE')).toBe('pass');
      expect(filesText(reached.dir)).not.toContain(GATEWAY_KEY);
    } finally {
      await gate.close();
      await receiver.close();
    }
  }, 300_000);
});
