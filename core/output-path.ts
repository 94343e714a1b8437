/**
 * Output paths are checked before a run starts: a `--report DIR` that cannot be created or written
 * stops the command at once with exit 2 naming the path, before any request (results are never
 * lost at the end of a long run).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { makeDirectory } from './safe-write.ts';
import { join, resolve } from 'node:path';
import { HarnessError } from './errors.ts';

/** Creates `dir` if needed and proves it writable with a probe file; throws HarnessError (exit 2) otherwise. */
export function checkOutputDir(dir: string, flag = '--report'): string {
  const abs = resolve(dir);
  const probe = join(abs, `.hps-write-check-${process.pid}`);
  try {
    makeDirectory(abs);
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    throw new HarnessError('HPS_ERR_USAGE', `${flag} ${abs}: cannot be created or written (${code}); nothing was run`);
  }
  return abs;
}
