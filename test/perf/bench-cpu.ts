/**
 * CPU accounting for `npm run bench:load`, from Linux's /proc: how much of the machine the
 * measured client, the server and everything else (other jobs on a shared machine, the kernel's
 * interrupt work) used during a phase, in cores (CPU seconds per wall second). It lets the
 * bench say whether a ratio is limited by the generator or by the machine.
 * /proc/stat and /proc/<pid>/stat count in USER_HZ ticks, 100 per second on Linux.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

const USER_HZ = 100;

/** utime + stime of a process (every thread), in seconds; null when it is gone or unreadable. */
export function processCpuS(pid: number | 'self'): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / USER_HZ;
  } catch {
    return null;
  }
}

/**
 * Busy CPU seconds of the whole machine (every core; idle and iowait excluded), and the part
 * of it spent in interrupts (irq + softirq: on loopback, much of TCP's work for client and
 * server alike is done there, charged to no process).
 */
export function machineBusyS(): { busy: number; irq: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    const v = line.trim().split(/\s+/).slice(1).map(Number);
    const total = v.slice(0, 8).reduce((a, b) => a + b, 0); // user … steal (guest is inside user)
    return { busy: (total - v[3]! - v[4]!) / USER_HZ, irq: (v[5]! + v[6]!) / USER_HZ };
  } catch {
    return null;
  }
}

export interface CpuSample {
  at: number;
  client: number | null;
  server: number | null;
  busy: number | null;
  irq: number | null;
}

export function cpuSample(clientPid: number | 'self', serverPid: number | null): CpuSample {
  const m = machineBusyS();
  return {
    at: performance.now(),
    client: processCpuS(clientPid),
    server: serverPid === null ? null : processCpuS(serverPid),
    busy: m?.busy ?? null,
    irq: m?.irq ?? null,
  };
}

/** Cores used between two samples: client, server, and the rest of the machine. */
export interface CpuShares {
  client: number | null;
  server: number | null;
  /** Interrupt work (irq + softirq), mostly the loopback traffic of client and server. */
  irq: number | null;
  /** Busy cores used by neither client, server nor interrupts: other jobs on the machine. */
  others: number | null;
}

export function cpuShares(a: CpuSample, b: CpuSample): CpuShares {
  const wall = (b.at - a.at) / 1000;
  const d = (x: number | null, y: number | null): number | null => (x === null || y === null || wall <= 0 ? null : (y - x) / wall);
  const client = d(a.client, b.client);
  const server = d(a.server, b.server);
  const busy = d(a.busy, b.busy);
  const irq = d(a.irq, b.irq);
  return { client, server, irq, others: busy === null ? null : Math.max(0, busy - (client ?? 0) - (server ?? 0) - (irq ?? 0)) };
}

export const CORES = availableParallelism();

/** The true median (mean of the middle two for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export interface RateAndCpu {
  rps: number;
  cpu: CpuShares;
}

export interface WorkersCeiling {
  /** CPU seconds per request at one worker: generator, nginx, interrupts. */
  g: number;
  n: number;
  i: number;
  /** Cores left to generator, nginx and interrupts at two workers (the other jobs' share taken off). */
  free: number;
  /** The most --workers 2 / --workers 1 this run's machine allowed. */
  ceiling: number;
  /**
   * The most it allows had --workers 1 a whole core to itself and every core been free:
   * cores × g / (g + n + i) (nginx and interrupts run on what the generator leaves).
   */
  wholeCoreCeiling: number;
  /** Cores that 1.7× needs on those terms: 1.7 × (g + n + i) / g. */
  coresFor17: number;
  /** What nginx + interrupts may cost per request for 1.7× on `cores`: g × (cores / 1.7 − 1). */
  targetFor17: number;
}

/**
 * What this machine allows --workers 2 over --workers 1: at one worker each request costs the
 * generator g, nginx n and interrupts i CPU seconds; with two, at most free / (g + n + i)
 * requests per second fit, whoever runs them (the generator's cost per request assumed not to
 * fall with more threads).
 */
export function workersCeiling(w1: RateAndCpu, w2: RateAndCpu, cores: number): WorkersCeiling | null {
  const { client, server, irq } = w1.cpu;
  if (client === null || server === null || irq === null || w2.cpu.others === null || w1.rps <= 0 || client <= 0) return null;
  const g = client / w1.rps;
  const n = server / w1.rps;
  const i = irq / w1.rps;
  const free = Math.max(0, cores - w2.cpu.others);
  const perRequest = g + n + i;
  return {
    g,
    n,
    i,
    free,
    ceiling: free / perRequest / w1.rps,
    wholeCoreCeiling: (cores * g) / perRequest,
    coresFor17: (1.7 * perRequest) / g,
    targetFor17: Math.max(0, g * (cores / 1.7 - 1)),
  };
}
