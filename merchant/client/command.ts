/**
 * Runs the merchant's own command with HPS_BASE_URL and HPS_API_KEY pointing at the chaos
 * server, under a deadline; keeps the last 64 KiB of its output (stdout and stderr as they came),
 * redacted and free of control characters (colour codes removed), for the console and the reports. The command runs in its own process
 * group so a deadline ends it and its children (only it: we started it).
 */
import { spawn } from 'node:child_process';

export const MAX_TAIL_BYTES = 64 * 1024;

export interface CommandOutcome {
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  /** The last MAX_TAIL_BYTES of the output, redacted, control characters removed. */
  outputTail: string;
  /** Bytes the command wrote in all. */
  outputBytes: number;
}

/** ANSI escape sequences, then every control character but newline and tab. */
export function cleanOutput(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\x1b\[[0-9;?]*[ -\/]*[@-~]/g, '').replace(/\r\n/g, '\n').replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, '');
}

export function runMerchantCommand(
  command: string,
  env: Record<string, string>,
  timeoutMs: number,
  redact: (s: string) => string,
  cwd?: string,
): Promise<CommandOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, detached: true, cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = Buffer.alloc(0);
    let outputBytes = 0;
    const keep = (c: Buffer) => {
      outputBytes += c.length;
      tail = Buffer.concat([tail, c]);
      if (tail.length > MAX_TAIL_BYTES) tail = tail.subarray(tail.length - MAX_TAIL_BYTES);
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
      resolve({
        exitCode: code,
        timedOut,
        durationMs: Math.round(performance.now() - started),
        outputTail: redact(cleanOutput(tail.toString('utf8'))),
        outputBytes,
      });
    };
    child.on('error', () => done(null));
    child.on('close', (code) => done(code));
  });
}

/** The command's end in one line: `command: exit 2 after 0.4 s` (a deadline reached says so). */
export function commandStatusLine(outcome: CommandOutcome): string {
  return `command: exit ${outcome.exitCode ?? 'none'}${outcome.timedOut ? ' (deadline reached, killed)' : ''} ` +
    `after ${(outcome.durationMs / 1000).toFixed(1)} s`;
}

/** The tail of the command's output (kept redacted and free of control characters), one `  | ` line per line. */
export function printCommandTail(outcome: CommandOutcome, log: (l: string) => void): void {
  const shown = outcome.outputBytes > MAX_TAIL_BYTES ? `the last ${MAX_TAIL_BYTES / 1024} KiB of ${outcome.outputBytes} ` +
    `bytes` : `${outcome.outputBytes} bytes`;
  log(`command output (${shown}, redacted):`);
  for (const line of (outcome.outputTail.trimEnd() || '(no output)').split('\n')) log(`  | ${line}`);
}
