/**
 * What the benches share to measure ratios on a shared machine: phases run interleaved (A B A B …)
 * and the ratio of A over B taken round by round, its median and range printed with the CPU shares
 * of each side (bench-cpu.ts). Used by bench-load.ts and bench-proxy-speed.ts.
 */
import { median } from './bench-cpu.ts';
import type { PhaseResult } from './bench-targets.ts';

export type Results = Record<string, PhaseResult[]>;

export const k = (x: number): string => `${(x / 1000).toFixed(1)}k`;
export const cores = (x: number | null): string => (x === null ? '—' : x.toFixed(2));

/** Runs the named phases in turn, `rounds` times (A B A B …); returns the results by name. */
export async function interleave(rounds: number, phases: Record<string, () => Promise<PhaseResult>>): Promise<Results> {
  const out: Results = Object.fromEntries(Object.keys(phases).map((n) => [n, []]));
  for (let i = 0; i < rounds; i += 1) for (const [name, f] of Object.entries(phases)) out[name]!.push(await f());
  return out;
}

export function medianOf(rs: readonly PhaseResult[], f: (r: PhaseResult) => number | null): number | null {
  const xs = rs.map(f).filter((x): x is number => x !== null);
  return xs.length ? median(xs) : null;
}

function cpuLine(name: string, rs: readonly PhaseResult[]): string {
  return `    ${name.padEnd(10)} ${k(medianOf(
    rs,
    (r) => r.rps,
  )!).padStart(7)} req/s · cores: client ${cores(medianOf(
    rs,
    (r) => r.cpu.client,
  ))}, server ${cores(medianOf(
    rs,
    (r) => r.cpu.server,
  ))}, interrupts ${cores(medianOf(rs, (r) => r.cpu.irq))}, others ${cores(medianOf(rs, (r) => r.cpu.others))}`;
}

export const range = (xs: readonly number[]): string => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;

/**
 * The ratio of A's rate over B's, round by round. With `per`, also the ratio of requests per
 * CPU second of that side (the side both are bound by): on a machine whose cores other jobs
 * share, it estimates what one whole core each would give.
 */
export function ratioLine(label: string, r: Results, a: string, b: string, goal: number, per?: 'client' | 'server'): string {
  const pairs = r[a]!.map((x, i) => x.rps / r[b]![i]!.rps);
  const m = median(pairs);
  const lines = [`${label}: ratio ${m.toFixed(2)} (median of ${pairs.length} rounds; range ${range(pairs)}; pairs ` +
    `${pairs.map((x) => x.toFixed(2)).join(' ')}) · goal ≥ ${goal} ${m >= goal ? 'MET' : 'NOT MET'}`];
  if (per) {
    const perCpu = r[a]!.map((x, i) => {
      const ca = x.cpu[per];
      const cb = r[b]![i]!.cpu[per];
      return ca && cb ? x.rps / ca / (r[b]![i]!.rps / cb) : null;
    }).filter((x): x is number => x !== null);
    if (perCpu.length) lines.push(`    per ${per} CPU second: ratio ${median(perCpu).toFixed(2)} (range ${range(perCpu)})`);
  }
  lines.push(cpuLine(a, r[a]!), cpuLine(b, r[b]!));
  return lines.join('\n');
}

