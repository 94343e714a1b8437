/**
 * nginx from Debian's package in front of an upstream, with TLS from a throw-away CA, as a stock
 * deployment runs it: default buffer sizes and limits, `proxy_pass` and nothing else. Everything
 * (certificates, configuration, pid, logs, temp files) lives in one temp dir, so it runs without
 * installing anything or touching /etc; it listens on 127.0.0.1 only.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort } from '../../service/harness/main/embedded.ts';

export interface RunningNginx {
  url: string;
  /** The throw-away CA's certificate (give it to clients as NODE_EXTRA_CA_CERTS). */
  caFile: string;
  dir: string;
  errorLog(): string;
  close(): Promise<void>;
}

const TOOL_TIMEOUT_MS = 20_000;

/** The absolute path of `name` on PATH (plus the sbin dirs, where Debian puts nginx), or null. */
export function findTool(name: string): string | null {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/sbin'];
  for (const dir of dirs) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** One line naming what is missing and how to get it, or null when nginx and openssl are there. */
export function missingInfraTools(find: (name: string) => string | null = findTool): string | null {
  const missing = ['nginx', 'openssl'].filter((t) => find(t) === null);
  if (missing.length === 0) return null;
  return `${missing.join(' and ')} not found on PATH: install Debian's package${missing.length > 1 ? 's' : ''} (apt-get install ${missing.join(' ')}); .ci/run does`;
}

/** A CA and a server certificate for 127.0.0.1 / localhost signed by it, valid one day. */
export function makeCertificates(dir: string): { ca: string; cert: string; key: string } {
  const openssl = findTool('openssl') ?? 'openssl';
  const run = (args: string[]) => execFileSync(openssl, args, { cwd: dir, timeout: TOOL_TIMEOUT_MS, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  run(['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=hps-conformance throw-away CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
  run(['req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1']);
  writeFileSync(
    join(dir, 'server.ext'),
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n',
  );
  run([
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '1',
    '-extfile',
    'server.ext',
  ]);
  return { ca: join(dir, 'ca.pem'), cert: join(dir, 'server.pem'), key: join(dir, 'server.key') };
}

/** The whole configuration: defaults everywhere but the paths, the listener and proxy_pass. */
export function nginxConfig(o: { dir: string; port: number; upstream: string; cert: string; key: string; serverExtra?: string }): string {
  const p = (name: string) => join(o.dir, name);
  return `# written by test/infra/nginx.ts for one test run
worker_processes 1;
pid ${p('nginx.pid')};
error_log ${p('error.log')} warn;
events { worker_connections 512; }
http {
  access_log ${p('access.log')};
  client_body_temp_path ${p('client_body')};
  proxy_temp_path ${p('proxy')};
  fastcgi_temp_path ${p('fastcgi')};
  uwsgi_temp_path ${p('uwsgi')};
  scgi_temp_path ${p('scgi')};
  server {
    listen 127.0.0.1:${o.port} ssl;
    ssl_certificate ${o.cert};
    ssl_certificate_key ${o.key};${o.serverExtra ? `\n    ${o.serverExtra}` : ''}
    location / {
      proxy_pass ${o.upstream};
    }
  }
}
`;
}

/**
 * `serverExtra`: directives added to the server block (a client certificate demanded, a header
 * checked), given the temp dir and its throw-away CA (ca.pem, ca.key) to sign with.
 */
export async function startNginx(upstream: string, serverExtra?: (dir: string) => string): Promise<RunningNginx> {
  const nginx = findTool('nginx');
  if (nginx === null) throw new Error(missingInfraTools() ?? 'nginx not found');
  const dir = mkdtempSync(join(tmpdir(), 'hps-nginx-'));
  // Run as root, nginx's workers drop to `nobody`: they must reach the temp dirs under `dir`.
  chmodSync(dir, 0o755);
  const { ca, cert, key } = makeCertificates(dir);
  const port = await freePort();
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, nginxConfig({ dir, port, upstream, cert, key, ...(serverExtra ? { serverExtra: serverExtra(dir) } : {}) }));
  const args = ['-p', dir, '-e', join(dir, 'error.log'), '-c', conf, '-g', 'daemon off;'];
  execFileSync(nginx, [...args, '-t'], { timeout: TOOL_TIMEOUT_MS, stdio: 'pipe' });
  const child = spawn(nginx, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  await waitForPort(port, child, () => stderr);
  const errorLog = () => {
    try {
      return readFileSync(join(dir, 'error.log'), 'utf8');
    } catch {
      return '';
    }
  };
  return {
    url: `https://127.0.0.1:${port}`,
    caFile: ca,
    dir,
    errorLog,
    close: async () => {
      await stop(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function waitForPort(port: number, child: ChildProcess, stderr: () => string): Promise<void> {
  const net = await import('node:net');
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${stderr().trim().split('\n').pop() ?? ''}`);
    const open = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`nginx did not listen on 127.0.0.1:${port} within 10 s`);
}

/** SIGQUIT is nginx's graceful stop; SIGKILL after 5 s. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGQUIT');
  });
}
