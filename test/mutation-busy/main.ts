/**
 * `npm run mutation:busy`: the planted faults of one area (webhooks by default) caught while this
 * process's event loop, where each run's embedded reference and sink live, stands still BLOCK ms
 * every EVERY ms: which faults a busy machine hides. A rule that times deliveries excuses what the
 * suite's own stalls explain (no false alarm), so a fault found only by timing can slip through on
 * a starved CI machine; this finds every such fault at once, instead of one CI failure at a time.
 * The other side too: the clean reference, the area's whole suite under the same stalls, must raise
 * no alarm (an excuse too narrow is a false alarm on a busy machine).
 * Exit 0 when every fault was caught and the clean run raised nothing, 1 otherwise, 2 on a bad argument.
 */
import { parseArgs } from 'node:util';
import { formatMutationTable, faultAreas, mutationScore } from '../../service/mutation/score.ts';
import { FAULT_NAMES } from '../../service/mutation/faults.ts';
import { runOnce } from '../../service/mutation/runners.ts';

const USAGE = 'usage: npm run mutation:busy -- [--block MS] [--every MS] [--area AREA] [--seeds N] [--seed N]';

function whole(name: string, text: string | undefined, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  const n = /^[0-9]+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new Error(`--${name} takes a whole number from ${min} to ${max} (got ${text})`);
  return n;
}

function options() {
  const v = parseArgs({
    args: process.argv.slice(2),
    options: {
      block: { type: 'string' }, every: { type: 'string' }, area: { type: 'string' }, seeds: { type: 'string' }, seed: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  }).values;
  const block = whole('block', v.block, 1_500, 1, 60_000);
  const every = whole('every', v.every, 9_000, block + 1, 600_000);
  const seeds = whole('seeds', v.seeds, 1, 1, 10);
  return { block, every, area: v.area ?? 'webhooks', seeds, seed: whole('seed', v.seed, 20261121, 0, 2 ** 31) };
}

/** Blocks this thread's loop for `block` ms every `every` ms until stopped. */
function stallEvery(block: number, every: number): () => void {
  const timer = setInterval(() => {
    const end = performance.now() + block;
    while (performance.now() < end) { /* the loop stands still */ }
  }, every);
  return () => clearInterval(timer);
}

async function main(): Promise<number> {
  let o: ReturnType<typeof options>;
  try {
    o = options();
  } catch (e) {
    console.error(`mutation:busy: ${(e as Error).message.split('\n')[0]}\n${USAGE}`);
    return 2;
  }
  const faults = FAULT_NAMES.filter((n) => faultAreas(n).includes(o.area));
  if (faults.length === 0) {
    console.error(`mutation:busy: no planted fault meets area ${o.area}\n${USAGE}`);
    return 2;
  }
  console.log(`${faults.length} faults of area ${o.area}, this process standing still ${o.block} ms every ${o.every} ms…`);
  const stop = stallEvery(o.block, o.every);
  const [m, clean] = await Promise.all([
    // timedApart false: the faults only timing shows stay in this process, where the stalls reach them.
    mutationScore({ seed: o.seed, seedCount: o.seeds, runs: 25, faults: [...faults], timedApart: false }),
    runOnce('session', { areas: [o.area], faults: [], seed: o.seed, runs: 25 }),
  ]).finally(stop);
  console.log(formatMutationTable(m));
  const missed = m.results.filter((r) => !r.caught).map((r) => r.fault);
  const alarms = (clean.report?.rules ?? []).filter((r) => ['fail', 'warn', 'error', 'flaky'].includes(r.status));
  for (const r of alarms) console.log(`clean reference: ${r.id} ${r.status}: ${JSON.stringify(r.evidence).slice(0, 400)}`);
  const cleanSaid = clean.report
    ? `${alarms.length} alarms on the clean reference`
    : `no report from the clean reference (${clean.problem ?? 'unknown'})`;
  console.log(`${m.caught}/${m.faults} caught on every seed${missed.length ? ` (missed: ${missed.join(' ')})` : ''}; ${cleanSaid}; ` +
    `this process standing still ${o.block} ms every ${o.every} ms`);
  return missed.length || alarms.length || !clean.report ? 1 : 0;
}

process.exitCode = await main();
