/**
 * A process measured from outside, with its whole tree (the child and every process it started):
 * peak resident memory and CPU time, read from Linux's /proc while it runs. Works on any command,
 * whatever it writes (an older checkout of the suite writes no results.ndjson), like
 * `/usr/bin/time -v`, but summed over the tree: time's "Maximum resident set size" is the largest
 * single process's, never the tree's.
 *
 * Peak memory is the larger of the highest sum of VmRSS over the tree seen at a poll, and the
 * highest VmHWM (the kernel's own peak, exact between polls) of any one process: a single-process
 * run (the suite's workers are threads) is then measured exactly, a tree to the poll interval.
 * Elsewhere than Linux every figure is 0.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** /proc counts CPU in USER_HZ ticks, 100 per second on Linux. */
const TICK_MS = 10;

export interface ProcStat {
  readonly pid: number;
  readonly ppid: number;
  /** utime + stime, ms (every thread of the process). */
  readonly cpuMs: number;
}

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
export function parseStat(pid: number, stat: string): ProcStat | null {
  const close = stat.lastIndexOf(')');
  if (close < 0) return null;
  const f = stat.slice(close + 2).split(' ');
  // f[0] is field 3 (state): ppid is field 4, utime 14, stime 15.
  const ppid = Number(f[1]);
  const cpu = Number(f[11]) + Number(f[12]);
  if (!Number.isFinite(ppid) || !Number.isFinite(cpu)) return null;
  return { pid, ppid, cpuMs: cpu * TICK_MS };
}

/** `VmRSS` and `VmHWM` of /proc/<pid>/status, kB (0 when absent: a zombie, a kernel thread). */
export function parseStatus(status: string): { rssKb: number; hwmKb: number } {
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rssKb: kb('VmRSS'), hwmKb: kb('VmHWM') };
}

/** `root` and its descendants, from a list of (pid, ppid). */
export function descendantsOf(root: number, procs: readonly ProcStat[]): number[] {
  const children = new Map<number, number[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const out: number[] = [];
  const todo = [root];
  while (todo.length) {
    const pid = todo.pop()!;
    if (out.includes(pid)) continue;
    out.push(pid);
    todo.push(...(children.get(pid) ?? []));
  }
  return out;
}

function readProcs(): ProcStat[] {
  const out: ProcStat[] = [];
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const s = parseStat(Number(name), readFileSync(`/proc/${name}/stat`, 'utf8'));
      if (s) out.push(s);
    } catch {
      // gone between the listing and the read
    }
  }
  return out;
}

export interface TreeFigures {
  /** Peak resident memory of the tree, kB (see the file's comment). */
  peakRssKb: number;
  /** The most processes seen in the tree at once. */
  processes: number;
  /** CPU time of the tree, ms: each process's last reading (a process that ended between polls loses its last interval). */
  cpuMs: number;
}

/** Polls the tree of `root` every `intervalMs` until `stop()`, which returns its figures. */
export function sampleTree(root: number, intervalMs = 100): { stop: () => TreeFigures } {
  const fig: TreeFigures = { peakRssKb: 0, processes: 0, cpuMs: 0 };
  const cpuOf = new Map<number, number>();
  const poll = () => {
    const procs = readProcs();
    const tree = new Set(descendantsOf(root, procs));
    let sum = 0;
    let seen = 0;
    for (const p of procs) {
      if (!tree.has(p.pid)) continue;
      cpuOf.set(p.pid, Math.max(cpuOf.get(p.pid) ?? 0, p.cpuMs));
      try {
        const { rssKb, hwmKb } = parseStatus(readFileSync(`/proc/${p.pid}/status`, 'utf8'));
        sum += rssKb;
        seen++;
        fig.peakRssKb = Math.max(fig.peakRssKb, hwmKb);
      } catch {
        // ended between reads
      }
    }
    fig.peakRssKb = Math.max(fig.peakRssKb, sum);
    fig.processes = Math.max(fig.processes, seen);
    fig.cpuMs = [...cpuOf.values()].reduce((a, b) => a + b, 0);
  };
  poll();
  const timer = setInterval(poll, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      return { ...fig };
    },
  };
}
