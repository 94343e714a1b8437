/**
 * `npm run bench:mutation`: what the mutation score costs, measured side by side in one run.
 *
 * 1. A fixed sample of faults (every k-th of the catalogue, so every area is in it), run in
 *    rounds A B A B: A = one vitest session in this process (the default), B = a child process
 *    per fault (`--isolation process`, one at a time, and two at a time as before). Per-fault
 *    medians and the ratio B/A, round by round.
 * 2. Unless --sample-only: the whole catalogue, one seed, sessions side by side as `mutation`
 *    runs it (the figure `npm test` pays), and with --seeds N also N seeds (`npm run mutation`: 5).
 *
 * Flags: --sample N (default 12), --rounds N (default 2), --seeds N, --sample-only, --full-only.
 */
import { mutationScore, type MutationSummary } from '../../service/mutation/score.ts';
import { FAULTS } from '../../service/mutation/faults.ts';
import type { Isolation } from '../../service/mutation/runners.ts';

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 1 || v > 1000) {
    console.error(`bench:mutation: --${name} takes a whole number from 1 to 1000`);
    process.exit(2);
  }
  return v;
}

/** The middle value; with an even count, the mean of the two middle ones. */
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function timed(
  label: string,
  faults: string[],
  isolation: Isolation,
  jobs: number | undefined,
  seedCount = 1,
): Promise<MutationSummary> {
  const m = await mutationScore({ faults, seed: 20261121, seedCount, runs: 25, isolation, jobs });
  const missed = m.results.filter((r) => !r.caught).map((r) => `${r.fault}${r.control ? ' (control, alarmed: ' : ' (failed: '}${r.failed.join(' ') || r.problem || 'nothing'})`);
  console.log(`  ${label.padEnd(34)} ${s(m.duration_ms).padStart(8)} · ${(m.duration_ms / faults.length / seedCount / 1000).toFixed(2)} s per fault and seed · caught ${m.caught}/${m.faults}${missed.length ? ` (missed: ${missed.join(', ')})` : ''}`);
  return m;
}

async function main(): Promise<void> {
  const all = Object.keys(FAULTS).sort();
  const k = Math.max(1, Math.floor(all.length / flag('sample', 12)));
  const sample = all.filter((_, i) => i % k === 0).slice(0, flag('sample', 12));
  const rounds = flag('rounds', 2);
  if (process.argv.includes('--full-only')) return full(all);
  console.log(`bench:mutation · ${sample.length} of ${all.length} faults, 1 seed, 25 runs per property, ${rounds} rounds A B A B`);
  const ratios: number[] = [];
  const ratios2: number[] = [];
  for (let r = 1; r <= rounds; r++) {
    console.log(`round ${r}`);
    const a = await timed('A  session (this process)', sample, 'session', 1);
    const b = await timed('B  child process per fault, 1 job', sample, 'process', 1);
    const b2 = await timed('B2 child process per fault, 2 jobs', sample, 'process', 2);
    ratios.push(b.duration_ms / a.duration_ms);
    ratios2.push(b2.duration_ms / a.duration_ms);
  }
  console.log(`process/session wall time: 1 job ×${median(ratios).toFixed(2)} (rounds ${ratios.map((x) => x.toFixed(2)).join(', ')}); 2 jobs ×${median(ratios2).toFixed(2)} (rounds ${ratios2.map((x) => x.toFixed(2)).join(', ')})`);
  if (process.argv.includes('--sample-only')) return;
  await full(all);
}

async function full(all: string[]): Promise<void> {
  console.log(`the whole catalogue (${all.length} faults), sessions side by side as \`mutation\` runs them by default:`);
  await timed('1 seed', all, 'session', undefined);
  const seeds = process.argv.includes('--seeds') ? flag('seeds', 5) : 0;
  if (seeds > 1) await timed(`${seeds} seeds`, all, 'session', undefined, seeds);
}

await main();
