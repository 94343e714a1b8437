/**
 * Runs the merchant's own command with HPS_BASE_URL and HPS_API_KEY pointing at the chaos
 * server, under a deadline; keeps the tail of its output. The command runs in its own process
 * group so a deadline ends it and its children (only it: we started it).
 */
import { spawn } from 'node:child_process';

const MAX_TAIL = 4096;

export interface CommandOutcome {
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  outputTail: string;
}

export function runMerchantCommand(command: string, env: Record<string, string>, timeoutMs: number, redact: (s: string) => string, cwd?: string): Promise<CommandOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, detached: true, cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    const keep = (c: Buffer) => {
      tail = (tail + c.toString('utf8')).slice(-MAX_TAIL);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    const done = (code: number | null) => {
      clearTimeout(timer);
      resolve({ exitCode: code, timedOut, durationMs: Math.round(performance.now() - started), outputTail: redact(tail) });
    };
    child.on('error', () => done(null));
    child.on('close', (code) => done(code));
  });
}
