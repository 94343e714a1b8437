/**
 * A command run to its end without blocking the test's event loop. A test that waits on a long
 * child with spawnSync blocks its vitest worker too: on a loaded machine the worker's own calls
 * to vitest then time out ("Timeout calling onTaskUpdate") and the whole run errors.
 */
import { execFile } from 'node:child_process';

export interface ChildResult {
  /** Exit status; null when the child was killed (its deadline, or a signal). */
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runChild(
  file: string,
  args: readonly string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<ChildResult> {
  return new Promise((resolve) => {
    execFile(file, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      encoding: 'utf8',
      timeout: opts.timeoutMs,
      maxBuffer: 64 * 1024 * 1024,
    }, (error, stdout, stderr) => {
      const code = error ? (error as { code?: unknown }).code : 0;
      resolve({ status: typeof code === 'number' ? code : null, stdout, stderr });
    });
  });
}
