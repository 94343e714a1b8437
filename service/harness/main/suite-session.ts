/**
 * The bridge to vitest: one vitest instance that runs the suites once per call of `run`,
 * each time with its own context (profile, seed, run id) and its own rule filter.
 * `hps-conformance run` opens a session for one run; the mutation score keeps one open
 * across every planted fault, so vitest, its workers and the suites' modules start once
 * instead of once per fault. Run-scoped state in the workers is keyed by the run id
 * (service/harness/worker/run-scoped.ts), so consecutive runs share nothing but compiled code.
 */
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { File, Task } from '@vitest/runner';
import type { BaseSequencer, Reporter, TestModule, TestSpecification, Vitest } from 'vitest/node';
import type { Rule } from '../../../catalogue/index.ts';
import { selectRules } from '../../../catalogue/index.ts';
import { HarnessError } from '../../../core/errors.ts';
import { PACKAGE_ROOT } from '../../../core/package-root.ts';
import type { SuiteContextData } from '../../../core/run-context.ts';
import type { FinishedTest } from '../../../results/verdict/collect.ts';
import { newTargetGate } from '../../../core/target-gate.ts';
import { newLargeAnswerTurns } from '../../../core/large-answers.ts';
import { EXCLUSIVE_AREAS, HELD_DURING_EXCLUSIVE } from '../common/exclusive.ts';
import { longestFirst } from './schedule.ts';
import { cacheTransforms, transformCacheDir, transformSalt, type TransformingServer } from './transform-cache.ts';
import { ruleFilesFor } from './suite-files.ts';

/**
 * The embedded reference runs in this process, on the same CPUs as the workers, and answers at
 * once: its run is CPU-bound, not waiting. On a 2-CPU machine two workers keep both CPUs busy
 * (one of them mostly holds the webhook retry file, started first: service/harness/main/schedule.ts); each
 * further worker adds its own start-up (module evaluation, schema compiles: ~0.7-1.4 s of CPU) and
 * ~60-75 MB of memory (docs/design.md, "Where the quick start's memory goes").
 */
export const EMBEDDED_SUITE_WORKERS = 2;
export const MUTATION_SUITE_WORKERS = 2;
/** Rule tests in flight at once in one worker, by default (`--concurrency`, probes.concurrency). */
export const DEFAULT_CONCURRENCY = 8;

/** The reporter of the run in progress; the session's own reporter forwards every call to it. */
type ReporterSlot = { current: Partial<Reporter> };

export class SuiteSession {
  private cancelled = false;
  /** Lets the run in progress's exclusive file take its turn now (cancel). */
  private allowHolding: () => void = () => {};
  private constructor(
    private readonly vitest: Vitest,
    private readonly slot: ReporterSlot,
    private specs: TestSpecification[] | undefined,
    readonly workers: number,
  ) {}

  /**
   * `keepWorkers`: for a session that serves many runs. vitest recycles its worker threads after
   * every run (to isolate runs from each other), so each run would start threads and evaluate every
   * suite module again (~1 s a run here); run-scoped state is reset by the run id instead
   * (service/harness/worker/run-scoped.ts), so the session keeps its workers and only rule files are evaluated anew.
   */
  /** `workers`: suite worker threads (a profile's target: service/harness/main/distance.ts). */
  static async open(o: { keepWorkers?: boolean; workers: number }): Promise<SuiteSession> {
    const { createVitest, BaseSequencer } = await import('vitest/node');
    if (o.keepWorkers) await keepWorkersAcrossRuns();
    const slot: ReporterSlot = { current: {} };
    const vitest = await createVitest(
      'test',
      vitestOptions(forwardingReporter(slot), o.workers, longestFirstSequencer(BaseSequencer, o.workers)),
      { logLevel: 'silent', server: { watch: null } },
    );
    keepTransforms(vitest);
    return new SuiteSession(vitest, slot, undefined, o.workers);
  }

  /**
   * Runs the rule files the selected rules need (./suite-files.ts), only the selected rules' tests: rule tests
   * side by side (`concurrency` at once in each worker, vitest's maxConcurrency); the exclusive
   * areas' files last, each taking the target alone once only files that may be held are left
   * (service/harness/common/exclusive.ts, core/target-gate.ts).
   */
  async run(
    selected: readonly Rule[],
    ctx: SuiteContextData,
    reporter: Partial<Reporter> = {},
    o: { concurrency?: number; stopped?: () => boolean } = {},
  ): Promise<FinishedTest[]> {
    const files = ruleFilesFor(selected);
    this.specs ??= await this.vitest.globTestSpecifications();
    const specs = this.specs.filter((s) => files.has(s.moduleId.split('\\').join('/')));
    const gate = newTargetGate();
    this.allowHolding = gate.allowHolding;
    this.vitest.provide('hps', ctx);
    this.vitest.provide('hpsGate', gate.buffer);
    this.vitest.provide('hpsLarge', newLargeAnswerTurns());
    this.vitest.config.maxConcurrency = o.concurrency ?? DEFAULT_CONCURRENCY;
    const pattern = namePattern(selected);
    if (pattern) this.vitest.setGlobalTestNamePattern(pattern);
    else this.vitest.resetGlobalTestNamePattern();
    this.slot.current = turnTaker(reporter, specs, gate.allowHolding);
    this.cancelled = false;
    reporter.onInit?.(this.vitest);
    runsInProcess++;
    try {
      await this.vitest.runTestSpecifications(specs, false).finally(() => runsInProcess--);
      // The service is the process's, shared by every session in it: stopped while another session's
      // run transforms a file, that transform never answers (its worker's fetch times out after 60 s).
      if (runsInProcess === 0) stopTransformService();
      const loadErrors: string[] = [];
      // Only this run's files: vitest's state (and result.testModules) keeps every file any run of
      // this session ran, and a file from an earlier run must never lend this one its results.
      const ran = new Set(specs.map((s) => s.moduleId));
      const tests = this.vitest.state.getFiles().filter((f: File) => ran.has(f.filepath)).flatMap((f: File) => testsOf(f, loadErrors));
      if (loadErrors.length) throw new HarnessError('HPS_ERR_SUITE', `suite file(s) failed to load: ${loadErrors.join(' | ')}`);
      return tests;
    } finally {
      this.slot.current = {};
    }
  }

  /** Stops the run in progress (its tests end as they are). */
  async cancel(): Promise<void> {
    this.cancelled = true;
    // An exclusive file waiting for its turn goes on at once (and ends as the run is cancelled).
    this.allowHolding();
    await this.vitest.cancelCurrentRun('keyboard-input');
  }

  async close(): Promise<void> {
    await this.vitest.close();
  }
}

/** The suite modules' transforms kept on disk from run to run (./transform-cache.ts). */
function keepTransforms(vitest: Vitest): void {
  const dir = transformCacheDir(PACKAGE_ROOT);
  if (dir === undefined) return;
  const salt = transformSalt(PACKAGE_ROOT);
  // vitest 3 keeps vite-node's server on each project (internal, not in its types).
  const servers = new Set(vitest.projects.map((p) => (p as unknown as { vitenode?: TransformingServer }).vitenode));
  for (const server of servers) {
    if (server && typeof server._transformRequest === 'function') cacheTransforms(server, { root: PACKAGE_ROOT, dir, salt });
  }
}

/** Runs in progress in this process, over every session (the mutation score runs several side by side). */
let runsInProcess = 0;

/**
 * Stops vite's esbuild service: a child process (~16 MB resident) that transformed the suites'
 * TypeScript as the workers first imported it. Once the run's files have run it is idle; the
 * verdict and the report files (the run's peak of memory) come after. esbuild starts it again on
 * its next transform (the next run of a session, when a file changed).
 */
function stopTransformService(): void {
  try {
    const name = 'esbuild';
    const esbuild = createRequire(import.meta.resolve('vite'))(name) as { stop?: () => unknown };
    void esbuild.stop?.();
  } catch {
    // not found where vite finds it: left running, as before
  }
}

let workersKept = false;

/** Makes tinypool's recycleWorkers (called by vitest's pool after each run) a no-op, for this process. */
async function keepWorkersAcrossRuns(): Promise<void> {
  if (workersKept) return;
  const { Tinypool } = await import('tinypool');
  Tinypool.prototype.recycleWorkers = async () => undefined;
  workersKept = true;
}

function vitestOptions(reporter: Reporter, workers: number, sequencer: typeof BaseSequencer) {
  return {
    config: false as const,
    root: PACKAGE_ROOT,
    include: ['suites/**/*.rules.ts'],
    watch: false,
    reporters: [reporter],
    passWithNoTests: true,
    pool: 'threads' as const,
    // min = max: tinypool rejects 'Terminating worker thread' when it retires idle workers (vitest#8564).
    // Suites mostly wait on the network: run files side by side even on a 2-CPU machine
    // (vitest's default is CPUs - 1 workers, i.e. one file at a time there).
    maxWorkers: workers,
    minWorkers: workers,
    // Rule tests of a file run side by side (ruleTest marks the ones that need their order).
    sequence: { concurrent: true, sequencer },
    maxConcurrency: DEFAULT_CONCURRENCY,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    // Files share modules within a worker: schemas compile once per worker, not once per file.
    isolate: false,
  };
}

/**
 * The run's reporter, plus the turn of the exclusive areas: once every file that may not be held
 * (neither exclusive nor in HELD_DURING_EXCLUSIVE) has ended, an exclusive file may take the target.
 */
function turnTaker(reporter: Partial<Reporter>, specs: readonly TestSpecification[], allowHolding: () => void): Partial<Reporter> {
  const mustEnd = new Set(specs.filter((s) => !EXCLUSIVE_AREAS.has(areaOfModule(s.moduleId) ?? '') && !HELD_DURING_EXCLUSIVE.has(areaOfModule(s.moduleId) ?? '')).map((s) => s.moduleId));
  if (mustEnd.size === 0) allowHolding();
  return {
    ...reporter,
    onTestModuleEnd: (m: TestModule) => {
      if (mustEnd.delete(m.moduleId) && mustEnd.size === 0) allowHolding();
      return reporter.onTestModuleEnd?.(m);
    },
  };
}

/**
 * Longest first (service/harness/main/schedule.ts), the exclusive areas' files last: one waits in its worker for
 * its turn, so it must not take a worker other files need. vitest's own order (its results cache,
 * rewritten by every earlier run of the checkout) is not used: the order is the same on every run.
 */
function longestFirstSequencer(Base: typeof BaseSequencer, workers: number): typeof BaseSequencer {
  return class LongestFirst extends Base {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      return longestFirst(files, (s) => sizeOf(s.moduleId), workers);
    }
  };
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** A reporter that hands every event to the run in progress (vitest takes its reporters once). */
function forwardingReporter(slot: ReporterSlot): Reporter {
  return new Proxy({} as Reporter, {
    get: (_t, name) => (typeof name !== 'string' || !name.startsWith('on') || name === 'onInit' ? undefined : (...args: unknown[]) => (slot.current as Record<string, ((...a: unknown[]) => unknown) | undefined>)[name]?.(...args)),
  });
}

const AREA_OF_MODULE = /[/\\]suites[/\\]([^/\\]+)[/\\]/;

function areaOfModule(moduleId: string): string | undefined {
  return AREA_OF_MODULE.exec(moduleId)?.[1];
}

/** Tests are titled "RULE-ID: …": the selected ids as one anchored pattern; none when every rule runs. */
function namePattern(selected: readonly Rule[]): string | undefined {
  if (selected.length === selectRules({}).length) return undefined;
  return `^(${selected.map((r) => r.id.replace(/[-]/g, '\\-')).join('|')}):`;
}

function testsOf(task: Task, loadErrors: string[]): FinishedTest[] {
  if (task.type === 'suite') {
    const children = task.tasks ?? [];
    const out = children.flatMap((c) => testsOf(c, loadErrors));
    const file = task as File;
    // A suite file that failed to load is a broken suite, never a silent skip.
    if (file.filepath && task.result?.state === 'fail' && children.length === 0) {
      loadErrors.push(`${file.name}: ${(task.result.errors ?? []).map((e) => e.message).join('; ')}`);
    }
    return out;
  }
  const state = task.result?.state === 'pass' ? 'pass' : task.result?.state === 'fail' ? 'fail' : 'skip';
  return [{
    title: task.name,
    state,
    durationMs: task.result?.duration ?? 0,
    errors: (task.result?.errors ?? []).map((e) => e.message ?? String(e)),
    meta: task.meta?.hps,
  }];
}
