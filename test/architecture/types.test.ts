/**
 * The type check (`tsc --noEmit -p .`, TypeScript strict) as one of `npm test`'s files: it runs beside
 * the others instead of before them. Run first, alone, it held one of the machine's two cores for
 * ~22 s while the other sat idle. `npm run typecheck` and `npm run test:quick` still run it on its own.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runChild } from '../support/run-child.ts';

const ROOT = join(import.meta.dirname, '../..');
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

it('tsc --noEmit -p . reports no error', async () => {
  const r = await runChild(process.execPath, [TSC, '--noEmit', '-p', '.'], { cwd: ROOT, timeoutMs: 300_000 });
  expect(`${r.stdout}${r.stderr}`.trim()).toBe('');
  expect(r.status).toBe(0);
}, 330_000);
