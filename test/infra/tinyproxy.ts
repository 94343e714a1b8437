/**
 * tinyproxy from Debian's package: a real forward proxy (absolute-form requests and CONNECT), as a
 * corporate network puts in front of a staging service. Everything (configuration, log, pid)
 * lives in one temp dir; it listens on 127.0.0.1 only and takes clients from 127.0.0.1 only.
 * Its log names every request it forwarded (`Request (file descriptor N): GET http://… HTTP/1.1`,
 * `CONNECT host:port`), which is how a test counts what reached it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../service/harness/main/embedded.ts';
import { stopDaemon, untilReady } from './daemon.ts';
import { findTool } from './nginx.ts';

export interface RunningProxy {
  url: string;
  /** The request lines tinyproxy logged (`GET http://127.0.0.1:…/v1/payments?limit=1 HTTP/1.1`, `CONNECT 127.0.0.1:…`). */
  requests(): string[];
  close(): Promise<void>;
}

/** One line naming what is missing, or null when tinyproxy is there. */
export function missingProxyTool(): string | null {
  return findTool('tinyproxy') === null ? 'tinyproxy not found on PATH: install Debian\'s package (apt-get install tinyproxy); .ci/run does' : null;
}

export async function startTinyproxy(): Promise<RunningProxy> {
  const bin = findTool('tinyproxy');
  if (bin === null) throw new Error(missingProxyTool()!);
  const dir = mkdtempSync(join(tmpdir(), 'hps-tinyproxy-'));
  const port = await freePort();
  const log = join(dir, 'tinyproxy.log');
  // No ConnectPort line: CONNECT to any port (the test targets listen on free high ports).
  writeFileSync(
    join(dir, 'tinyproxy.conf'),
    [
      `Port ${port}`,
      'Listen 127.0.0.1',
      'Timeout 60',
      `LogFile "${log}"`,
      'LogLevel Info',
      `PidFile "${join(dir, 'tinyproxy.pid')}"`,
      'MaxClients 200',
      'Allow 127.0.0.1',
      'DisableViaHeader Yes',
      '',
    ].join('\n'),
  );
  const child = spawn(bin, ['-d', '-c', join(dir, 'tinyproxy.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  const read = (): string => {
    try {
      return readFileSync(log, 'utf8');
    } catch {
      return '';
    }
  };
  if (!await untilReady(child, () => /Accepting connections/.test(read()), { timeoutMs: 10_000, pollMs: 50 })) {
    child.kill('SIGKILL');
    throw new Error(`tinyproxy did not start on 127.0.0.1:${port}: ${read().trim().split('\n').pop() ?? ''}`);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => [...read().matchAll(/Request \(file descriptor \d+\): (.+)$/gm)].map((m) => m[1]!.trim()),
    close: () => stopDaemon(child, dir),
  };
}
