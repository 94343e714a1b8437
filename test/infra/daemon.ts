/**
 * A real server a test starts as a child process (Prometheus, tinyproxy): waited for until it says
 * it is ready, stopped with its files removed.
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

/**
 * Polls `ready` every `pollMs` until it holds; false once the child has exited or `timeoutMs` has
 * passed (the caller stops it and says why).
 */
export async function untilReady(
  child: ChildProcess,
  ready: () => boolean | Promise<boolean>,
  { timeoutMs, pollMs }: { timeoutMs: number; pollMs: number },
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await ready()) return true;
    if (child.exitCode !== null || Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** SIGTERM, SIGKILL if it has not exited 5 s later; then its directory removed. */
export async function stopDaemon(child: ChildProcess, dir: string): Promise<void> {
  if (child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  rmSync(dir, { recursive: true, force: true });
}
