/**
 * Every transport error a user meets has its own code (docs/errors.md) and one line naming what
 * fixes it (issue "Honest at every edge a user meets", item 3): real TLS servers on 127.0.0.1 with
 * certificates made here by the openssl CLI (self-signed, expired, issued by an unknown CA, for
 * another host name, asking a client certificate over TLS 1.2), a refused port, and an HTTP proxy
 * answering 403 to CONNECT. The preflight is called directly; two cases go through the CLI (exit 3).
 */
import { execFile, execFileSync } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAllPools } from '../core/client.ts';
import { ERROR_CODES } from '../core/error-codes.ts';
import { HarnessError } from '../core/errors.ts';
import type { Profile } from '../core/profile.ts';
import { preflight } from '../core/targets/preflight.ts';
import { errorsMarkdown } from '../cli/write-errors-doc.ts';

const BIN = join(import.meta.dirname, '..', 'bin', 'hps-conformance.mjs');
const KEY = 'pt_test_sk_transporterrors0123456';
const dir = mkdtempSync(join(tmpdir(), 'hps-transport-'));
const servers: Array<http.Server> = [];
const f = (name: string) => join(dir, name);

function openssl(args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
}

/** A CA, and certificates: self-signed, CA-issued for 127.0.0.1, CA-issued and expired, CA-issued for another host. */
function makeCertificates(): void {
  const subj = (cn: string) => ['-subj', `/CN=${cn}`];
  openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', ...subj('hps-test-ca')]);
  openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'self.key', '-out', 'self.crt', '-days', '2', ...subj('127.0.0.1'),
    '-addext', 'subjectAltName=IP:127.0.0.1']);
  writeFileSync(f('ca.cnf'), '[ca]\ndefault_ca=d\n[d]\ndatabase=index.txt\nnew_certs_dir=.\nserial=serial\ndefault_md=sha256\n' +
    'policy=p\ncopy_extensions=copy\nunique_subject=no\n[p]\ncommonName=supplied\n');
  writeFileSync(f('index.txt'), '');
  writeFileSync(f('serial'), '01\n');
  const issued: Array<[string, string, string, string]> = [
    ['good', 'IP:127.0.0.1', '20200101000000Z', '20990101000000Z'],
    ['expired', 'IP:127.0.0.1', '20200101000000Z', '20200102000000Z'],
    ['other', 'DNS:other.test', '20200101000000Z', '20990101000000Z'],
  ];
  for (const [name, san, start, end] of issued) {
    openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, ...subj(name),
      '-addext', `subjectAltName=${san}`]);
    openssl(['ca', '-batch', '-config', 'ca.cnf', '-cert', 'ca.crt', '-keyfile', 'ca.key', '-in', `${name}.csr`, '-out', `${name}.crt`,
      '-startdate', start, '-enddate', end, '-notext']);
  }
}

async function listen(s: http.Server): Promise<number> {
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as AddressInfo).port;
}

/** An https server answering an empty list of Payments with certificate `name`. */
function tlsServer(name: string, extra: https.ServerOptions = {}): Promise<number> {
  return listen(https.createServer({ key: readFileSync(f(`${name}.key`)), cert: readFileSync(f(`${name}.crt`)), ...extra }, (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[],"has_more":false}');
  }));
}

const ports: Record<string, number> = {};
beforeAll(async () => {
  makeCertificates();
  ports.self = await tlsServer('self');
  ports.good = await tlsServer('good');
  ports.expired = await tlsServer('expired');
  ports.other = await tlsServer('other');
  const ca = readFileSync(f('ca.crt'));
  ports.mtls = await tlsServer('good', { ca, requestCert: true, rejectUnauthorized: true, maxVersion: 'TLSv1.2' });
  const refused = http.createServer();
  ports.closed = await listen(refused);
  await new Promise<void>((r) => refused.close(() => r()));
  const proxy = http.createServer((_q, res) => res.writeHead(403).end());
  proxy.on('connect', (_req, socket) => socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n'));
  ports.proxy = await listen(proxy);
}, 60_000);
afterAll(async () => {
  await closeAllPools();
  for (const s of servers) s.close();
  rmSync(dir, { recursive: true, force: true });
});

const profile = (port: number, o: { scheme?: string; ca?: boolean } = {}): Profile => ({
  base_url: `${o.scheme ?? 'https'}://127.0.0.1:${port}`,
  keys: { test: KEY },
  ...(o.ca ? { network: { ca: f('ca.crt') } } : {}),
}) as Profile;

async function failure(p: Profile): Promise<HarnessError> {
  const e = await preflight(p).then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(HarnessError);
  return e as HarnessError;
}

describe('a transport error names its class and its fix', () => {
  const cases: Array<[string, () => Profile, string, RegExp]> = [
    ['self-signed', () => profile(ports.self!), 'HPS_ERR_TLS_SELF_SIGNED', /self-signed: .*--ca FILE/],
    ['issued by an unknown CA', () => profile(ports.good!), 'HPS_ERR_TLS_UNKNOWN_CA', /CA this machine does not trust: .*--ca FILE/],
    ['expired (CA given)', () => profile(ports.expired!, { ca: true }), 'HPS_ERR_TLS_EXPIRED', /has expired .*renew it/],
    ['another host name (CA given)', () => profile(ports.other!, { ca: true }), 'HPS_ERR_TLS_HOSTNAME', /not name the host .*--base-url/],
    ['a client certificate asked (TLS 1.2)', () => profile(ports.mtls!, { ca: true }), 'HPS_ERR_TLS_CLIENT_CERT', /--client-cert FILE/],
    ['a refused connection', () => profile(ports.closed!, { scheme: 'http' }), 'HPS_ERR_TARGET_REFUSED', /nothing accepts connections/],
  ];
  for (const [what, p, code, fix] of cases) {
    it(`${what}: ${code}, exit 3, one line with the fix and the docs entry`, async () => {
      const e = await failure(p());
      expect([e.code, e.exitCode]).toEqual([code, 3]);
      expect(e.message).toMatch(fix);
      expect(e.message).toContain(`docs/errors.md: ${code}`);
      expect(e.message).not.toContain('\n');
      expect(errorsMarkdown()).toContain(`| \`${code}\` |`);
    });
  }

  it('the valid certificate with --ca passes (the servers are sound)', async () => {
    await expect(preflight(profile(ports.good!, { ca: true }))).resolves.toEqual([]);
  });

  it('every code of the family is documented with the option that fixes it', () => {
    const fixes: Record<string, RegExp> = {
      HPS_ERR_TLS_SELF_SIGNED: /--ca/, HPS_ERR_TLS_UNKNOWN_CA: /--ca/, HPS_ERR_TLS_CLIENT_CERT: /--client-cert/,
      HPS_ERR_PROXY_REFUSED: /NO_PROXY/, HPS_ERR_TLS_HOSTNAME: /--base-url/, HPS_ERR_TARGET_REFUSED: /check the URL/,
    };
    for (const [code, fix] of Object.entries(fixes)) expect(ERROR_CODES[code as keyof typeof ERROR_CODES].meaning).toMatch(fix);
  });
});

function cli(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  return new Promise((res) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, HPS_DEBUG: '', HPS_KEY: KEY, ...env }, timeout: 60_000 },
      (e, out, err) => res({ code: e ? ((e as { code?: number }).code ?? 1) : 0, out, err }));
  });
}

describe('through the CLI: one line, exit 3', () => {
  const run = (url: string, env: Record<string, string> = {}, extra: string[] = []) => cli(
    ['run', url, ...extra, '--rule', 'AUTH-MISSING-KEY', '--no-progress', '--report', join(dir, 'report')],
    { HTTPS_PROXY: '', https_proxy: '', HTTP_PROXY: '', http_proxy: '', NO_PROXY: '', no_proxy: '', ...env },
  );

  it('run https://… with a self-signed certificate names --ca', async () => {
    const r = await run(`https://127.0.0.1:${ports.self}`);
    expect(r.code).toBe(3);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/self-signed: give that certificate, or the CA that issued it, with --ca FILE .*HPS_ERR_TLS_SELF_SIGNED/);
  }, 60_000);

  it('an HTTPS_PROXY refusing CONNECT names NO_PROXY', async () => {
    const r = await run(`https://127.0.0.1:${ports.good}`, { HTTPS_PROXY: `http://127.0.0.1:${ports.proxy}` }, ['--ca', f('ca.crt')]);
    expect(r.code).toBe(3);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/proxy of HTTPS_PROXY refused to open a tunnel to it \(CONNECT answered 403\): add the target's host to NO_PROX/);
    expect(r.err).toContain('HPS_ERR_PROXY_REFUSED');
  }, 60_000);
});
