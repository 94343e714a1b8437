/**
 * `mutation`: the suite against every planted fault (the mutation score), plus
 * the clean server, whose report carries the score as a section.
 */
import { join, resolve } from 'node:path';
import { falseAlarmRate, formatMutationTable, mutationScore } from '../service/mutation/score.ts';
import { runOnce, type Isolation } from '../service/mutation/runners.ts';
import { persistReport } from '../results/verdict/persist-report.ts';
import { HarnessError } from '../core/errors.ts';
import { makeDirectory, writeFileAtomic } from '../core/safe-write.ts';
import { intOption, listOption, type Options } from './options.ts';
import { checkOutputDir } from '../core/output-path.ts';

export async function mutationCommand(o: Options): Promise<number> {
  const seed = intOption(o, 'seed', -2147483648, 2147483647) ?? 1;
  const runs = intOption(o, 'runs', 1, 10000) ?? 25;
  const cleanSeeds = intOption(o, 'clean-seeds', 1, 1000);
  const isolation = isolationOption(o);
  if (cleanSeeds !== undefined) return falseAlarms(
    cleanSeeds,
    seed,
    runs,
    intOption(o, 'jobs', 1, 16),
    listOption(o, 'variant'),
    isolation,
  );
  const dir = checkOutputDir((o.report as string | undefined) ?? 'reports/mutation');
  const faults = listOption(o, 'fault');
  // The clean server runs beside the faults (its own session): its report carries the score.
  const clean = faults.length ? null : runOnce(isolation, { faults: [], seed, runs });
  const m = await mutationScore({
    faults,
    seed,
    seedCount: intOption(o, 'seeds', 1, 50) ?? 1,
    runs,
    jobs: intOption(o, 'jobs', 1, 16),
    isolation,
    onResult: (r, done, total) => {
      const result = r.caught ? (r.control ? 'held' : 'caught') : r.byChance ? 'BY CHANCE' : r.control ? 'ALARMED' : 'MISSED';
      const seeds = `${r.seeds.filter((x) => x.caught).length}/${r.seeds.length} seeds`;
      console.error(`[${done}/${total}] ${result} ${r.fault} (${seeds}, ${(r.duration_ms / 1000).toFixed(1)} s)`);
    },
  });
  console.log(formatMutationTable(m));
  makeDirectory(dir);
  writeFileAtomic(join(dir, 'mutation.json'), JSON.stringify(m, null, 2) + '\n');
  let cleanOk = true;
  if (clean) {
    const c = await clean;
    const alarms = (c.report?.rules ?? []).filter((r) => ['fail', 'warn', 'error', 'flaky'].includes(r.status));
    cleanOk = c.report !== null && alarms.length === 0;
    console.log(`clean server: ${c.report ? `${c.report.verdict}, ${alarms.length} ` +
      `FAIL/WARN/ERROR/FLAKY${alarms.length ? ': ' + alarms.map((r) => r.id).join(', ') : ''}` : 'no report'}`);
    if (c.report) {
      c.report.mutation = m;
      persistReport(dir, c.report);
      console.log(`report: ${join(dir, 'report.html')}`);
    }
  }
  return m.caught === m.faults && cleanOk ? 0 : 1;
}

/** `mutation --clean-seeds N`: the whole suite against the clean server with N seeds; any alarm is a false alarm. */
async function falseAlarms(
  n: number,
  first: number,
  runs: number,
  jobs: number | undefined,
  variants: string[],
  isolation: Isolation,
): Promise<number> {
  const seeds = Array.from({ length: n }, (_, i) => first + i);
  let alarmed = 0;
  for (const variant of variants.length ? variants : ['reference', 'alt']) {
    if (variant !== 'reference' && variant !== 'alt') throw new HarnessError(
      'HPS_ERR_USAGE',
      `--variant ${variant}: expected reference or alt`,
    );
    const s = await falseAlarmRate({
      seeds,
      runs,
      jobs,
      isolation,
      variant,
      onRun: (seed, alarms) => console.error(`${variant} seed ${seed}: ${alarms.length ? `ALARM ${alarms.join(' ')}` : 'no alarm'}`),
    });
    console.log(`false alarms (${variant}): ${s.alarmed.length}/${seeds.length} runs (rate ${(s.rate * 100).toFixed(1)}%) · ` +
      `seeds ${seeds[0]}..${seeds.at(-1)} · ${runs} runs per property · ${(s.duration_ms / 1000).toFixed(1)} s`);
    for (const a of s.alarmed) console.log(`  seed ${a.seed}: ${a.rules.join(', ')}`);
    alarmed += s.alarmed.length;
  }
  return alarmed === 0 ? 0 : 1;
}

function isolationOption(o: Options): Isolation {
  const v = (o.isolation as string | undefined) ?? 'session';
  if (v !== 'session' && v !== 'process') throw new HarnessError('HPS_ERR_USAGE', `--isolation ${v}: expected session or process`);
  return v;
}
