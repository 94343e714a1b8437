/**
 * How the mutation score runs the suite against one planted fault (or the clean server).
 * - `session` (the default): in this process, through one vitest session kept open across
 *   runs; each run starts its own embedded reference (with the fault) and sink, as
 *   `hps-conformance run` would, and gets the same report.
 * - `process`: `hps-conformance run` in a child process per run (each pays node's, tsx's
 *   and vitest's start-up); kept to check that both give the same verdicts, and for bench:mutation.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mapLimit } from '../../core/concurrency.ts';
import { PACKAGE_ROOT } from '../../core/package-root.ts';
import type { Report } from '../../catalogue/report/model.ts';
import { run } from '../harness/main/run.ts';
import { SuiteSession, MUTATION_SUITE_WORKERS } from '../harness/main/suite-session.ts';

/**
 * Rule tests in flight per worker in a mutation run: 1. Four sessions run in this one process,
 * each with its embedded reference and sink on this main thread, so the references answer in time
 * on a loaded machine. (The 10 s time-outs first blamed on 8 tests per worker came from redaction
 * that grew with every run of the process, fixed in core/redact.ts; one at a time is kept as the
 * cheaper load, and the whole score takes about 110 s on these 2 cores.)
 */
const MUTATION_CONCURRENCY = 1;

export type Isolation = 'session' | 'process';

export interface SuiteRun {
  rules?: string[];
  areas?: string[];
  faults: string[];
  seed: number;
  runs: number;
  variant?: 'reference' | 'alt';
}

export interface SuiteRunOutcome {
  report: Report | null;
  exitCode: number | null;
  /** Why there is no report (the last line the run printed, or the error it threw). */
  problem?: string;
  ms: number;
}

export interface SuiteRunner {
  run(r: SuiteRun): Promise<SuiteRunOutcome>;
  close(): Promise<void>;
}

/** A run that takes longer than this is given up (its outcome: no report). */
const RUN_DEADLINE_MS = 300_000;

const BIN = join(PACKAGE_ROOT, 'bin', 'hps-conformance.mjs');

export async function openRunner(isolation: Isolation): Promise<SuiteRunner> {
  return isolation === 'process' ? processRunner() : sessionRunner(await SuiteSession.open({
    keepWorkers: true,
    workers: MUTATION_SUITE_WORKERS,
  }));
}

function sessionRunner(session: SuiteSession): SuiteRunner {
  return {
    async run(r) {
      const started = performance.now();
      // Past the deadline the run is cancelled and still awaited: the next run of this session
      // must never start while vitest is busy with this one. Its outcome is then no report.
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        void session.cancel();
      }, RUN_DEADLINE_MS);
      const ms = () => Math.round(performance.now() - started);
      try {
        // One rule test at a time per worker (MUTATION_CONCURRENCY): 4 sessions share this process with their embedded references.
        const res = await run({
          rules: r.rules,
          areas: r.areas,
          faults: r.faults,
          seed: r.seed,
          runs: r.runs,
          variant: r.variant,
          session,
          persist: false,
          concurrency: MUTATION_CONCURRENCY,
          log: () => {},
          onReferenceError: () => {},
        });
        if (timedOut) return { report: null, exitCode: null, problem: `gave up after ${RUN_DEADLINE_MS / 1000} s`, ms: ms() };
        return { report: res.report, exitCode: res.exitCode, ms: ms() };
      } catch (e) {
        return {
          report: null,
          exitCode: null,
          problem: timedOut ? `gave up after ${RUN_DEADLINE_MS / 1000} s` : (e as Error).message,
          ms: ms(),
        };
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => session.close(),
  };
}

/**
 * `fn` over every item, at most `jobs` at a time, each call given a runner of its own for its
 * duration: runners (vitest sessions) are opened as needed, reused by the next item, and
 * closed at the end, so at most `jobs` exist.
 */
export async function withRunners<T>(
  items: readonly T[],
  jobs: number,
  isolation: Isolation,
  fn: (runner: SuiteRunner, item: T) => Promise<void>,
): Promise<void> {
  const idle: SuiteRunner[] = [];
  const opened: SuiteRunner[] = [];
  try {
    await mapLimit(items, jobs, async (item) => {
      const runner = idle.pop() ?? opened[opened.push(await openRunner(isolation)) - 1]!;
      try {
        await fn(runner, item);
      } finally {
        idle.push(runner);
      }
    });
  } finally {
    await Promise.all(opened.map((r) => r.close()));
  }
}

/** One run through a runner of its own (opened and closed around it). */
export async function runOnce(isolation: Isolation, r: SuiteRun): Promise<SuiteRunOutcome> {
  const runner = await openRunner(isolation);
  try {
    return await runner.run(r);
  } finally {
    await runner.close();
  }
}

function processRunner(): SuiteRunner {
  return {
    async run(r) {
      const scope = [...(r.rules ?? []).flatMap((id) => ['--rule', id]), ...(r.areas ?? []).flatMap((a) => ['--area', a])];
      const args = [
        ...scope,
        ...r.faults.flatMap((f) => ['--fault', f]),
        `--seed=${r.seed}`,
        '--runs',
        String(r.runs),
        ...(r.variant ? ['--variant', r.variant] : []),
      ];
      const child = await runChild(args);
      return {
        report: child.report,
        exitCode: child.code,
        ms: child.ms,
        ...(child.report ? {} : { problem: child.stderr.trim().split('\n').pop() ?? 'no report' }),
      };
    },
    close: async () => undefined,
  };
}

/** Runs `hps-conformance run` in a child process and reads its report.json. */
export function runChild(args: string[]): Promise<{ code: number | null; report: Report | null; stderr: string; ms: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'hps-mut-'));
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'run', ...args, '--no-progress', '--report', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_DEADLINE_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      let report: Report | null = null;
      try {
        report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
      } catch {
        report = null;
      }
      rmSync(dir, { recursive: true, force: true });
      resolve({ code, report, stderr, ms: Math.round(performance.now() - started) });
    });
  });
}

