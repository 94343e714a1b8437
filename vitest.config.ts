// The project's own tests (npm test). The conformance suites under suites/
// are not collected here: `hps-conformance run` drives them against a target.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'generators/**/*.spec.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
