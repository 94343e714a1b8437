#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader: no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
// The command is done. A run stopped early (--max-failures) can leave vitest worker threads
// finishing a cancelled test; they must not keep the process alive. unref: a clean exit is not delayed.
setTimeout(() => process.exit(), 2000).unref();
