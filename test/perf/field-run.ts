/**
 * One whole-suite run through a field proxy (test/perf/field-proxy.ts) in front of a fresh
 * reference: the verdict, the counts and the proxy's figures. Used by `npm run bench:field`
 * and by the project's tests.
 *
 * The reference and the proxy run in a process of their own (field-child.ts), as a real service
 * would: in a vitest worker thread beside other test files, on a loaded 2-CPU machine, the
 * in-thread service was seen leaving the run's requests unanswered for over 30 s (circuit open,
 * rules out of time) in rate-limited cases that pass alone.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import type { ReferenceProfile } from '../../references/service/index.ts';
import { freePort } from '../../service/harness/main/embedded.ts';
import { runSuite, writeProfile, type SuiteRun } from './run-suite.ts';
import type { FieldProxyOptions } from './field-proxy.ts';
import type { FieldChildStats } from './field-child.ts';

export interface FieldRun {
  run: SuiteRun;
  proxy: FieldChildStats;
}

const CHILD = join(import.meta.dirname, 'field-child.ts');
const START_MS = 60_000;

/** `o` may depend on the fresh reference's profile (its keys are new each time). */
export async function runThroughProxy(
  o: FieldProxyOptions | ((profile: ReferenceProfile) => FieldProxyOptions),
  args: string[] = [],
  seed = 1,
  timeoutMs = 600_000,
): Promise<FieldRun> {
  // The reference's webhooks go to a port the run's sink will take.
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, String(await freePort())], { stdio: ['pipe', 'pipe', 'pipe'] });
  const service = lineChannel(child);
  try {
    const { reference } = (await service.next(START_MS)) as { reference: ReferenceProfile };
    service.send({ options: typeof o === 'function' ? o(reference) : o });
    const { profile } = (await service.next(START_MS)) as { profile: unknown };
    const run = await runSuite(['--profile', writeProfile(profile), ...args], { seed, timeoutMs });
    service.send({ stats: true });
    const { stats } = (await service.next(START_MS)) as { stats: FieldChildStats };
    return { run, proxy: stats };
  } finally {
    await service.close();
  }
}

interface LineChannel {
  /** The child's next JSON line, or an error naming its exit and last stderr when none comes within `ms`. */
  next(ms: number): Promise<unknown>;
  send(msg: unknown): void;
  /** Closes its stdin and waits for its exit (killed after 5 s). */
  close(): Promise<void>;
}

function lineChannel(child: ChildProcessWithoutNullStreams): LineChannel {
  const queue: string[] = [];
  let wake = () => {};
  let stderr = '';
  let exit: string | undefined;
  child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
  createInterface({ input: child.stdout }).on('line', (l) => (queue.push(l), wake()));
  const exited = new Promise<void>((resolve) => child.once('exit', (code, signal) => {
    exit = `exited ${signal ?? code}`;
    wake();
    resolve();
  }));
  return {
    async next(ms) {
      const deadline = Date.now() + ms;
      while (!queue.length) {
        if (exit || Date.now() > deadline) {
          throw new Error(`field service: ${exit ?? `no answer within ${ms} ms`}: ${stderr.trim().slice(-600)}`);
        }
        await new Promise<void>((r) => {
          const timer = setTimeout(r, Math.max(1, deadline - Date.now()));
          wake = () => (clearTimeout(timer), r());
        });
      }
      return JSON.parse(queue.shift()!);
    },
    send: (msg) => void child.stdin.write(JSON.stringify(msg) + '\n'),
    async close() {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
