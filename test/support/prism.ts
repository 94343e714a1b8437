/**
 * Prism (@stoplight/prism-cli, a devDependency): a real OpenAPI mock server, started on a free
 * loopback port on a given document, in a child process of its own. Anonymous usage reporting is
 * switched off (loopback only).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

export interface PrismServer {
  url: string;
  /** What Prism printed so far (its request log), for failure messages. */
  output(): string;
  close(): Promise<void>;
}

const PRISM_BIN = join(dirname(createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Starts `prism mock DOCUMENT` and resolves once it listens (at most `deadlineMs`). */
export async function startPrism(document: string, deadlineMs = 60_000): Promise<PrismServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [PRISM_BIN, 'mock', '-h', '127.0.0.1', '-p', String(port), document], {
    env: { ...process.env, DO_NOT_TRACK: '1', SCARF_ANALYTICS: 'false', NO_COLOR: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (b: Buffer) => {
    out = (out + b.toString('utf8')).slice(-200_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  await waitListening(child, () => out, deadlineMs);
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => out,
    close: () => stop(child),
  };
}

function waitListening(child: ChildProcess, output: () => string, deadlineMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (/Prism is listening on/.test(output())) done();
    }, 100);
    const deadline = setTimeout(() => done(new Error(`Prism did not listen within ${deadlineMs} ms:\n${output()}`)), deadlineMs);
    const onExit = (code: number | null) => done(new Error(`Prism exited (${String(code)}):\n${output()}`));
    child.once('exit', onExit);
    function done(err?: Error) {
      clearInterval(timer);
      clearTimeout(deadline);
      child.off('exit', onExit);
      if (err) {
        child.kill('SIGKILL');
        reject(err);
      } else resolve();
    }
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
