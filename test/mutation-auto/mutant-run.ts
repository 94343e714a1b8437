/**
 * The command Stryker's command runner starts for every mutant of `npm run mutation:auto`, and once
 * with no mutant active (its dry run), in Stryker's sandbox: a copy of the tree whose decision files
 * are instrumented, every mutant behind a switch that reads the environment variable
 * `__STRYKER_ACTIVE_MUTANT__` (the active mutant's id) as the process loads them.
 *
 * It finds the file holding the active mutant (its switch, `stryMutAct_…("ID")`), runs the suite
 * areas that file is mapped to (areas.ts) against the embedded reference, which loads the
 * instrumented file, and exits 0 when the run is conformant (the mutant survived), 1 otherwise
 * (killed; the line printed says why: the verdict, the exit status, the rules that failed). With
 * no mutant active it runs the areas of every instrumented file: the clean run must be conformant.
 * Bounded: the run is killed after 15 minutes (Stryker's own time-out usually comes first).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { areasOf, MUTATED_FILES } from './areas.ts';
import { mutantRunOptions } from './args.ts';

const ACTIVE_MUTANT = '__STRYKER_ACTIVE_MUTANT__';
const RUN_DEADLINE_MS = 15 * 60_000;
const OUTPUT_TAIL = 4000;

/** The files of the table that Stryker instrumented in `root` (its sandbox). */
export function instrumentedFiles(root: string): string[] {
  return Object.keys(MUTATED_FILES).filter((f) => existsSync(join(root, f)) && readFileSync(join(root, f), 'utf8').includes('stryMutAct_'));
}

/** The file of the table in `root` that holds the switch of mutant `id`, if any. */
export function fileOfMutant(root: string, id: string): string | undefined {
  const needle = new RegExp(`stryMutAct_[0-9a-z]+\\("${id.replace(/[^0-9a-zA-Z]/g, '')}"\\)`);
  return instrumentedFiles(root).find((f) => needle.test(readFileSync(join(root, f), 'utf8')));
}

interface RuleLine {
  id: string;
  status: string;
}

/** What the run's report says: its verdict and the rules that failed or erred. */
function readVerdict(reportDir: string): { verdict: string; failed: string[] } | undefined {
  const file = join(reportDir, 'report.json');
  if (!existsSync(file)) return undefined;
  const report = JSON.parse(readFileSync(file, 'utf8')) as { verdict: string; rules: RuleLine[] };
  return { verdict: report.verdict, failed: report.rules.filter((r) => r.status === 'fail' || r.status === 'error').map((r) => r.id) };
}

function runAreas(areas: readonly string[], seed: number, reportDir: string): Promise<{ code: number | null; tail: string }> {
  const args = ['bin/hps-conformance.mjs', 'run', '--area', areas.join(','), '--seed', String(seed), '--no-progress', '--report', reportDir];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-OUTPUT_TAIL);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const deadline = setTimeout(() => child.kill('SIGKILL'), RUN_DEADLINE_MS);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(deadline);
      resolve({ code, tail });
    });
  });
}

async function main(): Promise<number> {
  const { seed } = mutantRunOptions(process.argv.slice(2));
  const root = process.cwd();
  const id = process.env[ACTIVE_MUTANT];
  const file = id === undefined ? undefined : fileOfMutant(root, id);
  if (id !== undefined && file === undefined) {
    console.log(`mutant-run: mutant ${id} is in no file of MUTATED_FILES (test/mutation-auto/areas.ts)`);
    return 2;
  }
  const files = file === undefined ? instrumentedFiles(root) : [file];
  const areas = areasOf(files);
  const reportDir = mkdtempSync(join(tmpdir(), 'hps-mutant-'));
  try {
    const { code, tail } = await runAreas(areas, seed, reportDir);
    const seen = readVerdict(reportDir);
    const what = id === undefined ? 'no mutant (dry run)' : `mutant ${id} in ${file}`;
    const verdict = seen === undefined ? 'no report' : `${seen.verdict}${seen.failed.length ? `; failed: ${seen.failed.join(', ')}` : ''}`;
    console.log(`${what}; areas ${areas.join(',')}; exit ${code}; ${verdict}`);
    if (code !== 0 && seen === undefined) console.log(tail);
    return code === 0 ? 0 : 1;
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
