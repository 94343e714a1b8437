/**
 * Output paths are checked before a run starts: a `--report DIR` that cannot be created or written
 * stops the command at once with exit 2 naming the path, before any request (results are never
 * lost at the end of a long run).
 */
import { lstatSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { makeDirectory } from './safe-write.ts';
import { dirname, join, resolve } from 'node:path';
import { HarnessError } from './errors.ts';

/**
 * Creates `dir` if needed and proves it writable with a probe file; throws HarnessError (exit 2) otherwise.
 * `keep: false` (`run --dry-run`): the same checks, and the directories it made are removed again.
 */
export function checkOutputDir(dir: string, flag = '--report', o: { keep?: boolean } = {}): string {
  const abs = resolve(dir);
  const probe = join(abs, `.hps-write-check-${process.pid}`);
  const made: string[] = [];
  try {
    makeDirectory(abs, made);
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    throw new HarnessError('HPS_ERR_USAGE', `${flag} ${abs}: cannot be created or written (${code}); nothing was run`);
  } finally {
    if (o.keep === false) for (const d of made.reverse()) removeQuietly(d);
  }
  return abs;
}

/**
 * An output FILE (`--out`, `--profile-out`, the sink's `--log`): its directory as checkOutputDir
 * checks it, and the name either free, a regular file or a symbolic link (which the write replaces);
 * a directory or a device (`/dev/zero`: a rename would replace the device) is one line, exit 2.
 */
export function checkOutputFile(file: string, flag: string): string {
  const abs = resolve(file);
  let kind: string | undefined;
  try {
    const st = lstatSync(abs);
    if (st.isDirectory()) kind = 'a directory';
    else if (!st.isFile() && !st.isSymbolicLink()) kind = 'a device, pipe or socket';
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') {
      throw new HarnessError('HPS_ERR_USAGE', `${flag} ${abs}: cannot be written (${code ?? 'error'}); nothing was run`);
    }
  }
  if (kind) throw new HarnessError('HPS_ERR_USAGE', `${flag} ${abs}: is ${kind}, not a file; nothing was run`);
  checkOutputDir(dirname(abs), flag);
  return abs;
}

function removeQuietly(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // made a moment ago and empty; if it cannot go, it stays (nothing else was written)
  }
}
