// `npm run test:quick`: the edit loop. The type check, then the fast unit tests
// (test/support/test-groups.ts QUICK_INCLUDE less QUICK_EXCLUDE): nothing that runs the suite end
// to end, a load, a proxy or a browser. `npm test` (vitest.config.ts) runs every file.
import { defineConfig } from 'vitest/config';
import { QUICK_EXCLUDE, QUICK_INCLUDE } from './test/support/test-groups.ts';

export default defineConfig({
  test: {
    name: 'quick',
    include: QUICK_INCLUDE,
    exclude: QUICK_EXCLUDE,
    maxWorkers: 2,
    // min = max: tinypool retiring an idle worker that is kept across files rejects with
    // 'Terminating worker thread' and leaves it running (vitest#8564).
    minWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One module cache per worker across files: most of a unit test file's time is importing the
    // catalogue, the schemas and the reference, the same modules file after file.
    isolate: false,
  },
});
