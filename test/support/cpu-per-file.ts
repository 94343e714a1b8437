/**
 * `HPS_TEST_CPU_LOG=FILE npm test`: one JSON line per test file in FILE, with its wall time and the
 * CPU it cost: the worker's own (`process.cpuUsage`) and its child processes' (the CLI runs,
 * browsers and servers a test starts and waits for: `cutime + cstime` of /proc/self/stat, Linux).
 * Exact for `main`'s forks (one file at a time in a process); in `waiting`'s threads the process
 * is shared, so a file's figures there include its neighbours' (the line says `shared: true`).
 * Unset, it does nothing. Where `npm test`'s CPU goes: docs/development.md.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { afterAll, beforeAll, expect } from 'vitest';

const LOG = process.env.HPS_TEST_CPU_LOG;

/** User + system CPU of this process's waited-for children, ms (0 where /proc is absent). */
function childrenCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 16 and 17 of stat(5) (cutime, cstime), counted from field 3 here; clock ticks of 10 ms.
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}

if (LOG) {
  let start = { wall: 0, cpu: process.cpuUsage(), children: 0 };
  beforeAll(() => {
    start = { wall: performance.now(), cpu: process.cpuUsage(), children: childrenCpuMs() };
  });
  afterAll(() => {
    const cpu = process.cpuUsage(start.cpu);
    const line = {
      file: expect.getState().testPath ?? '?',
      // When the file ended (epoch ms): with wallMs, where it sat in the run.
      endedAt: Date.now(),
      wallMs: Math.round(performance.now() - start.wall),
      selfCpuMs: Math.round((cpu.user + cpu.system) / 1000),
      childrenCpuMs: childrenCpuMs() - start.children,
      shared: !isMainThread,
    };
    appendFileSync(LOG, `${JSON.stringify(line)}\n`);
  });
}
