/**
 * Report files are written safely: each to a temporary file in the same directory (created
 * exclusively, never through a link), then renamed over its name, so a reader sees the old file or
 * the new one, never half of one; a name that is a symbolic link is replaced by the file, never
 * followed (the link's target is left as it was). A directory is reused only after clearing the
 * files this tool writes there, by name: nothing else in it is touched.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsyncSync, lstatSync, mkdirSync, openSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** Every file name `run`, `report` and `load` write into a report directory. */
export const OWN_FILES: readonly string[] = [
  'report.json', 'report.html', 'junit.xml', 'summary.md', 'certificate.json', 'results.ndjson',
  'load.json', 'load.md', 'load.html', 'load.junit.xml', 'load-results.ndjson',
];

/** The files of a conformance run (a later `load` into the same directory keeps them, and vice versa). */
export const RUN_FILES: readonly string[] = OWN_FILES.filter((f) => !f.startsWith('load'));

/** Writes `data` to `file` through a temporary file and a rename; a symlink at `file` is replaced, never followed. */
export function writeFileAtomic(file: string, data: string | Uint8Array, mode = 0o644): void {
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  // O_EXCL: a name planted between the random draw and the open is refused, never followed.
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), mode);
  try {
    try {
      const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      for (let off = 0; off < buf.length; ) off += writeSync(fd, buf, off, buf.length - off);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    // rename(2) replaces the name itself: when it is a symlink, the link goes, its target stays.
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** Path components a directory may have (a bound on makeDirectory's walk). */
const MAX_COMPONENTS = 1024;

/**
 * `mkdir -p` that tries each component once (issue 31): Node's recursive mkdir loops for ever on a
 * path it can never create (`/proc/self/rep`: ENOENT again and again); here the first component that
 * cannot be made throws its error, once. The directories it made are pushed to `made` as it goes.
 */
export function makeDirectory(dir: string, made: string[] = []): void {
  const chain: string[] = [];
  for (let p = resolve(dir); chain.length < MAX_COMPONENTS; p = dirname(p)) {
    chain.push(p);
    if (dirname(p) === p) break;
  }
  for (const p of chain.reverse()) {
    try {
      mkdirSync(p);
      made.push(p);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}

/** Opens `file` for appending lines; refuses a symlink (O_NOFOLLOW) instead of writing through it. */
export function openAppendOnly(file: string): number {
  return openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0), 0o644);
}

/** Removes the named files of `dir` this tool writes (a symlink by that name: the link, not its target). */
export function clearOwnFiles(dir: string, names: readonly string[] = OWN_FILES): string[] {
  const removed: string[] = [];
  for (const name of names) {
    const p = join(dir, name);
    try {
      const st = lstatSync(p);
      if (st.isDirectory()) continue;
      unlinkSync(p);
      removed.push(name);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  return removed;
}
