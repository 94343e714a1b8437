/**
 * `npm run mutation:auto`: a mutation measure by StrykerJS over the reference server's decision
 * files (areas.ts), beside the planted faults (docs/mutation-auto.md). A seeded sample of mutants
 * (sample.ts; --all or MUTATION_AUTO_ALL=1: every one), each judged by Stryker's command runner
 * running mutant-run.ts: the suite areas of the mutated file against the embedded reference, the
 * mutant active. Prints and writes (REPORT/summary.json, REPORT/survivors.md, one line per suite
 * run in REPORT/mutant-runs.ndjson, Stryker's mutation.html and mutation.json) the score and the
 * wall time. Exit 0 once the measure is taken
 * (survivors are findings, not errors), 1 when it could not be (the clean dry run not conformant,
 * a mutant in no mapped file, Stryker testing other mutants than the sample), 2 bad usage.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { Stryker } from '@stryker-mutator/core';
import { MUTATED_FILES } from './areas.ts';
import { MAIN_USAGE, mainOptions, UsageError, type MainOptions } from './args.ts';
import { listMutants, sampleSites } from './sample.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
type MutantResult = Awaited<ReturnType<Stryker['runMutationTest']>>[number];

function strykerOptions(options: MainOptions, mutate: string[], log: string): ConstructorParameters<typeof Stryker>[0] {
  return {
    testRunner: 'command',
    commandRunner: { command: `node --import tsx test/mutation-auto/mutant-run.ts --seed ${options.seed} --log '${log}'` },
    mutate,
    checkers: [],
    plugins: [],
    coverageAnalysis: 'off',
    concurrency: options.concurrency,
    // the dry run is every mapped area in one run; a mutant's time-out is 1.5 × that + 60 s
    dryRunTimeoutMinutes: 45,
    timeoutFactor: 1.5,
    timeoutMS: 60_000,
    // tsx strips types without checking them; no checker plugin is installed
    disableTypeChecks: 'references/service/**/*.ts',
    ignorePatterns: ['reports', '.scratch', '.hps', '*.tgz'],
    reporters: ['progress-append-only', 'json', 'html'],
    jsonReporter: { fileName: join(options.report, 'mutation.json') },
    htmlReporter: { fileName: join(options.report, 'mutation.html') },
    cleanTempDir: 'always',
    incremental: false,
  };
}

const count = (results: readonly MutantResult[], ...statuses: string[]) => results.filter((r) => statuses.includes(r.status)).length;

/** One line per survivor: where, the mutator, the original code and its replacement. */
function survivorLines(results: readonly MutantResult[]): string[] {
  const texts = new Map<string, string[]>();
  const lineOf = (file: string, line: number) => {
    if (!texts.has(file)) texts.set(file, readFileSync(join(ROOT, file), 'utf8').split('\n'));
    return texts.get(file)![line - 1]!.trim();
  };
  return results
    .filter((r) => r.status === 'Survived' || r.status === 'NoCoverage')
    .sort((a, b) => a.fileName.localeCompare(b.fileName) || a.location.start.line - b.location.start.line || a.id.localeCompare(b.id))
    .map((r) => {
      const file = relative(ROOT, resolve(ROOT, r.fileName)).split(sep).join('/');
      const at = `${file}:${r.location.start.line}:${r.location.start.column}`;
      const replacement = r.replacement.replace(/\s+/g, ' ').slice(0, 80);
      return `| ${at} | ${r.mutatorName} | \`${lineOf(file, r.location.start.line).slice(0, 100)}\` | \`${replacement}\` |`;
    });
}

async function measure(options: MainOptions): Promise<number> {
  const started = Date.now();
  const listed = await listMutants(ROOT, Object.keys(MUTATED_FILES));
  const all = options.mutants === Infinity;
  const sample = sampleSites(listed, { seed: options.seed, budget: options.mutants, siteCap: all ? Infinity : undefined });
  const sites = sample.mutate.length;
  console.log(`mutation:auto: seed ${options.seed}, ${sample.mutants} of ${sample.eligible} eligible mutants (${sites} sites)`);
  mkdirSync(options.report, { recursive: true });
  const log = resolve(options.report, 'mutant-runs.ndjson');
  writeFileSync(log, '');
  const results = await new Stryker(strykerOptions(options, sample.mutate, log)).runMutationTest();
  const wallMs = Date.now() - started;
  const detected = count(results, 'Killed', 'Timeout');
  const valid = detected + count(results, 'Survived', 'NoCoverage');
  const misrouted = results.filter((r) => r.statusReason?.includes('mutant-run: mutant')).length;
  const unconfirmed = readFileSync(log, 'utf8').split('\n').filter((l) => l.includes('NOT confirmed')).length;
  const summary = {
    seed: options.seed,
    sampled: sample.mutants,
    eligible: sample.eligible,
    tested: results.length,
    killed: count(results, 'Killed'),
    timeout: count(results, 'Timeout'),
    survived: count(results, 'Survived', 'NoCoverage'),
    invalid: count(results, 'RuntimeError', 'CompileError'),
    unconfirmed_failures: unconfirmed,
    score: valid === 0 ? null : Math.round((detected / valid) * 1000) / 10,
    wall_seconds: Math.round(wallMs / 1000),
    concurrency: options.concurrency,
  };
  writeFileSync(join(options.report, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  const table = ['| mutant | mutator | original line | replacement |', '|---|---|---|---|', ...survivorLines(results)];
  writeFileSync(join(options.report, 'survivors.md'), `${table.join('\n')}\n`);
  console.log(
    `mutation:auto: ${summary.tested} mutants: ${summary.killed} killed, ${summary.timeout} timed out, ${summary.survived} survived` +
      ` · score ${summary.score ?? '-'} % · ${Math.floor(summary.wall_seconds / 60)} min ${summary.wall_seconds % 60} s` +
      ` (concurrency ${options.concurrency}; ${unconfirmed} failures not confirmed, not counted)` +
      ` · ${join(options.report, 'survivors.md')}`,
  );
  if (misrouted > 0) console.error(`mutation:auto: ${misrouted} mutants in no mapped file (test/mutation-auto/areas.ts)`);
  if (results.length !== sample.mutants) {
    console.error(`mutation:auto: Stryker tested ${results.length} mutants, the sample holds ${sample.mutants}`);
  }
  return misrouted > 0 || results.length !== sample.mutants ? 1 : 0;
}

async function main(): Promise<number> {
  let options: MainOptions;
  try {
    options = mainOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`mutation:auto: ${error.message}\n${MAIN_USAGE}`);
    return 2;
  }
  try {
    return await measure(options);
  } catch (error) {
    console.error(`mutation:auto: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

process.exitCode = await main();
