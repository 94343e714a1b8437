/**
 * The command Stryker's command runner starts for every mutant of `npm run mutation:auto`, and once
 * with no mutant active (its dry run), in Stryker's sandbox: a copy of the tree whose decision files
 * are instrumented, every mutant behind a switch that reads the environment variable
 * `__STRYKER_ACTIVE_MUTANT__` (the active mutant's id) as the process loads them.
 *
 * It finds the file holding the active mutant (its switch, `stryMutAct_…("ID")`), runs the suite
 * areas that file is mapped to (areas.ts) against the embedded reference, which loads the
 * instrumented file, and exits 0 when the mutant survived (the run conformant, no rule warning), 1
 * when it was killed (the line printed says why: the verdict, the exit status, the rules that failed
 * or warned, and the confirming run of those rules, see `judge`). With no mutant active it runs the areas of every
 * instrumented file: the clean run must be conformant. `--log FILE` appends one JSON line per run.
 * Bounded: each suite run is killed after 15 minutes (Stryker's own time-out usually comes first).
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { areasOf, fileOfMutant, instrumentedFiles } from './areas.ts';
import { mutantRunOptions, UsageError } from './args.ts';

const ACTIVE_MUTANT = '__STRYKER_ACTIVE_MUTANT__';
const RUN_DEADLINE_MS = 15 * 60_000;
const OUTPUT_TAIL = 4000;

interface RuleLine {
  id: string;
  status: string;
}

/**
 * What the run's report says: its verdict and the rules that failed, erred or warned (a SHOULD rule
 * warns where a MUST rule fails: the suite caught it, as the planted faults' score counts it).
 */
function readVerdict(reportDir: string): { verdict: string; failed: string[] } | undefined {
  const file = join(reportDir, 'report.json');
  if (!existsSync(file)) return undefined;
  const report = JSON.parse(readFileSync(file, 'utf8')) as { verdict: string; rules: RuleLine[] };
  const caught = report.rules.filter((r) => r.status === 'fail' || r.status === 'error' || r.status === 'warn');
  return { verdict: report.verdict, failed: caught.map((r) => `${r.id}${r.status === 'warn' ? ' (warn)' : ''}`) };
}

interface SuiteRun {
  code: number | null;
  tail: string;
  seen: { verdict: string; failed: string[] } | undefined;
}

/** One `hps-conformance run` of `selection` (`--area A,B` or `--rule X,Y`) against the embedded reference, in this sandbox. */
async function runSuite(selection: readonly string[], seed: number): Promise<SuiteRun> {
  const reportDir = mkdtempSync(join(tmpdir(), 'hps-mutant-'));
  const args = ['bin/hps-conformance.mjs', 'run', ...selection, '--seed', String(seed), '--no-progress', '--report', reportDir];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-OUTPUT_TAIL);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const deadline = setTimeout(() => child.kill('SIGKILL'), RUN_DEADLINE_MS);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(deadline);
  try {
    return { code, tail, seen: readVerdict(reportDir) };
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
}

/**
 * The areas' run, and when it fails (or warns) some rules, a second run of those rules alone (the same seed, so
 * the same cases): the mutant counts as killed only when the second run fails too, so that a rule
 * failing once from the machine's load (a timing rule on a busy machine) kills nothing. A run that
 * ends with no failed rule to confirm (no report, a crash, an incomplete verdict) counts as it is.
 */
async function judge(areas: readonly string[], seed: number): Promise<{ killed: boolean; line: string; tail?: string }> {
  const first = await runSuite(['--area', areas.join(',')], seed);
  const failed = first.seen?.failed ?? [];
  const verdict = first.seen === undefined ? 'no report' : `${first.seen.verdict}${failed.length ? `; failed: ${failed.join(', ')}` : ''}`;
  const line = `areas ${areas.join(',')}; exit ${first.code}; ${verdict}`;
  if (first.code === 0 && failed.length === 0) return { killed: false, line };
  if (failed.length === 0) return { killed: true, line, tail: first.tail };
  const again = await runSuite(['--rule', failed.map((r) => r.replace(' (warn)', '')).join(',')], seed);
  if (again.code !== 0 || (again.seen?.failed.length ?? 0) > 0) {
    return { killed: true, line: `${line}; confirmed: ${again.seen?.failed.join(', ') || `exit ${again.code}`}` };
  }
  return { killed: false, line: `${line}; NOT confirmed (the rules alone passed): not counted` };
}

async function main(): Promise<number> {
  let options: { seed: number; log: string | undefined };
  try {
    options = mutantRunOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.log(`mutant-run: ${error.message}`);
    return 2;
  }
  const root = process.cwd();
  const id = process.env[ACTIVE_MUTANT];
  const file = id === undefined ? undefined : fileOfMutant(root, id);
  if (id !== undefined && file === undefined) {
    console.log(`mutant-run: mutant ${id} is in no file of MUTATED_FILES (test/mutation-auto/areas.ts)`);
    return 2;
  }
  const started = Date.now();
  const areas = areasOf(file === undefined ? instrumentedFiles(root) : [file]);
  const { killed, line, tail } = await judge(areas, options.seed);
  const what = id === undefined ? 'no mutant (dry run)' : `mutant ${id} in ${file}`;
  console.log(`${what}; ${line}`);
  if (tail !== undefined) console.log(tail);
  if (options.log !== undefined) {
    const entry = { mutant: id ?? null, file: file ?? null, killed, line, seconds: Math.round((Date.now() - started) / 100) / 10 };
    appendFileSync(options.log, `${JSON.stringify(entry)}\n`);
  }
  return killed ? 1 : 0;
}

process.exitCode = await main();
