#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader: no build step.
import { setFlagsFromString } from 'node:v8';
import { register } from 'tsx/esm/api';

// `run` and `mutation` drive vitest through its Node API: vitest, vite, rollup and esbuild, hundreds
// of plain JavaScript modules. Loaded before tsx's loader is registered, node loads them itself,
// not each through tsx's resolve and load hooks (0.3 s instead of 1-2 s on a busy 2-CPU machine,
// on the quick start's critical path); the command's own import of it then finds it loaded.
const [command, ...rest] = process.argv.slice(2);
// `run` and `mutation`: a lighter heap (docs/design.md, "Where the quick start's memory and time
// go"). Every V8 isolate of a run (this thread, tsx's loader thread, each vitest worker) otherwise
// grows its young generation to 2 × 16 MB and its old generation to two or three times what it
// keeps alive (a worker kept ~31 MB alive in ~78 MB). Set before tsx's loader thread and vitest's
// workers exist: --max-semi-space-size applies to the isolates created after it (this thread's
// own is fixed at start: `npm run conformance` passes it on node's command line), the growing
// percent to every isolate at its next collection. Measured on the quick start: ~-80 MB of peak
// memory of the process tree, CPU time unchanged (`npm run bench:conformance`).
if (command === 'run' || command === 'mutation') {
  for (const flag of ['--max-semi-space-size=2', '--heap-growing-percent=15']) setFlagsFromString(flag);
}
if ((command === 'run' || command === 'mutation') && !rest.some((a) => a === '--dry-run' || a === '--help' || a === '-h')) await import('vitest/node');
register();
// `hps-conformance run --dry-run | head -1`: the reader has gone. End quietly, as a Unix tool does,
// instead of an unhandled 'error' event and its stack trace. Any other stream error is left as it was.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    throw error;
  });
}
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
// The command is done. A run stopped early (--max-failures) can leave vitest worker threads
// finishing a cancelled test; they must not keep the process alive. unref: a clean exit is not delayed.
setTimeout(() => process.exit(), 2000).unref();
