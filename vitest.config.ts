// The project's own tests (npm test). The conformance suites under suites/
// are not collected here: `hps-conformance run` drives them against a target.
//
// Two groups, one after the other:
// - `main`: every test file, three at a time (most of them wait on child runs, sockets and
//   timers, not on the CPU);
// - `timing`: the tests that measure time (the load generator's accuracy, shard merging, rates
//   reached), one file at a time once `main` is done, so no other test competes for the 2 cores.
import { defineConfig } from 'vitest/config';

const TIMING = ['test/load/accuracy.test.ts', 'test/load/shards.test.ts', 'test/load/embedded.test.ts'];

const common = {
  testTimeout: 60_000,
  hookTimeout: 60_000,
  pool: 'forks' as const,
};

export default defineConfig({
  test: {
    maxWorkers: 3,
    minWorkers: 1,
    projects: [
      {
        test: {
          ...common,
          name: 'main',
          include: ['test/**/*.test.ts', 'generators/**/*.spec.ts'],
          exclude: TIMING,
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
