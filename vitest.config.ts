// The project's own tests (npm test). The conformance suites under suites/
// are not collected here: `hps-conformance run` drives them against a target.
//
// Two groups, one after the other:
// - first `main` and `waiting` side by side, each with its own pool of workers:
//   - `main`: every other test file, three at a time (forks), the slowest ones first
//     (test/support/test-groups.ts SLOW_FIRST); each fork keeps its modules from file to file;
//   - `waiting`: the files that spend minutes waiting, not computing (WAITING: 429s, delivery
//     windows, Retry-After, signal moments waited out), four at a time in worker threads of
//     their own, so they never hold one of `main`'s three slots while they wait;
// - `timing`: the tests that measure time (the load generator's accuracy, shard merging, rates
//   reached), one file at a time once the first group is done, so no other test competes for the 2 cores.
// `npm run test:quick` (vitest.quick.config.ts) runs the fast unit tests only, for the edit loop.
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { SLOW_FIRST, TIMING, WAITING } from './test/support/test-groups.ts';

/**
 * vitest's own order (failed first, then longest first by its cached timings, else largest file
 * first), with the known-slow files moved to the front: the run's tail is then short files, even on
 * a fresh clone with no cached timings.
 */
class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = SLOW_FIRST.indexOf(relative(import.meta.dirname, f.moduleId).split('\\').join('/'));
      return i < 0 ? SLOW_FIRST.length : i;
    };
    return sorted.map((f, i) => ({ f, i, r: rank(f) })).sort((a, b) => a.r - b.r || a.i - b.i).map((x) => x.f);
  }
}

const common = {
  // HPS_TEST_CPU_LOG=FILE: each file's wall and CPU time, its child processes' included (test/support/cpu-per-file.ts).
  setupFiles: ['test/support/cpu-per-file.ts'],
  testTimeout: 60_000,
  hookTimeout: 60_000,
  pool: 'forks' as const,
};

export default defineConfig({
  test: {
    // The directory of this invocation's shared runs (test/support/shared-run.ts): a CLI run that
    // several test files read is made once, whichever project's worker asks first.
    globalSetup: ['test/support/shared-runs-setup.ts'],
    // `main`'s forks.
    maxWorkers: 3,
    // min = max: with forks kept across files, tinypool retiring an idle fork rejects with
    // 'Terminating worker thread' and leaves the fork running (vitest#8564).
    minWorkers: 3,
    poolOptions: {
      // `main`'s forks keep their module cache from file to file (as `npm run test:quick` does): most
      // of a small file's time is importing the catalogue, the schemas and the reference, the same
      // modules file after file. A file that measures its own process's memory puts what it measures
      // in a child process of its own (test/sink/flood-child.ts).
      forks: { isolate: false },
      // `waiting`'s threads: a pool apart from the forks, so its slots add to main's three.
      threads: { maxThreads: 4, minThreads: 1 },
    },
    sequence: { sequencer: SlowFirst },
    projects: [
      {
        test: {
          ...common,
          name: 'main',
          include: ['test/**/*.test.ts', 'service/generators/**/*.spec.ts'],
          exclude: [...TIMING, ...WAITING],
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...common,
          name: 'waiting',
          include: WAITING,
          pool: 'threads',
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...common,
          name: 'timing',
          include: TIMING,
          poolOptions: { forks: { singleFork: true } },
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
