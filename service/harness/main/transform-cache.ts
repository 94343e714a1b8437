/**
 * The suite modules as vite transforms them for the workers, kept on disk from run to run.
 *
 * A worker imports every suite module through vite-node: the main thread transforms each one
 * (esbuild in a child process, then vite's SSR rewrite and a source map folded in) and sends the
 * code over. The same ~150 files, unchanged, are transformed again by every `run`: ~0.3 s of CPU a
 * run on the main thread and the esbuild child, and a wait on the worker's side for each import.
 * vitest 4 keeps these on disk (`experimental.fsModuleCache`); vitest 3, which this project uses,
 * does not: this does it for the suite session.
 *
 * An entry is the transformed code of one module, under a name derived from the module's id, so a
 * module has at most one entry (an edit replaces it). It is used only when its key matches: the
 * module's source, its id and the package's root, the transform mode and a salt (the versions of vite, vite-node and
 * vitest, the installed dependency tree and this format's version). The code carries a digest
 * checked on every read, so a torn write is a miss, never wrong code. Anything that goes wrong (a
 * read-only install, a full disk) is a miss: the module is transformed as before.
 *
 * The cache lives in the package's own node_modules/.cache (a reinstall clears it, as vitest 4's
 * does); a package without its own node_modules directory caches nothing.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, relative } from 'node:path';

/** This file's format; bump it when the entry layout or what the key covers changes. */
const FORMAT = 'hps-transform-cache-1';
/** A transformed module larger than this is not kept (suite modules are a few tens of KB). */
const MAX_ENTRY_BYTES = 4 * 1024 * 1024;

type Transformed = { code?: string; map?: unknown } | null | undefined;

/** What this wraps: vite-node's server, as vitest 3's TestProject holds it (`project.vitenode`). */
export interface TransformingServer {
  _transformRequest(id: string, filepath: string, mode: string): Promise<Transformed>;
}

export interface TransformCacheStats {
  hits: number;
  misses: number;
  writes: number;
}

/** The cache directory of a package at `root`, or undefined when it has no node_modules of its own. */
export function transformCacheDir(root: string): string | undefined {
  const modules = join(root, 'node_modules');
  return existsSync(modules) ? join(modules, '.cache', 'hps-conformance', 'vite-node') : undefined;
}

/** What besides a module's source and id decides its transform: tool versions and the dependency tree. */
export function transformSalt(root: string): string {
  const require = createRequire(join(root, 'package.json'));
  const version = (pkg: string) => {
    try {
      return (require(`${pkg}/package.json`) as { version?: string }).version ?? '?';
    } catch {
      return '?';
    }
  };
  let tree = '';
  try {
    tree = createHash('sha256').update(readFileSync(join(root, 'node_modules', '.package-lock.json'))).digest('hex');
  } catch {
    // no hidden lockfile (an older npm, another package manager): the versions above still count
  }
  return [FORMAT, `vite@${version('vite')}`, `vite-node@${version('vite-node')}`, `vitest@${version('vitest')}`, tree].join('|');
}

/**
 * Wraps `server`'s transform of the modules under `root` (not node_modules) with the disk cache in
 * `dir`. Returns the counts of this process's hits, misses and writes.
 */
export function cacheTransforms(server: TransformingServer, o: CacheAt): TransformCacheStats {
  const stats: TransformCacheStats = { hits: 0, misses: 0, writes: 0 };
  const transform = server._transformRequest.bind(server);
  let dirMade = false;
  server._transformRequest = async (id, filepath, mode) => {
    const entry = entryOf(o, id, filepath, mode);
    if (entry === undefined) return transform(id, filepath, mode);
    const cached = readEntry(entry.file, entry.key);
    if (cached !== undefined) {
      stats.hits++;
      return { code: cached };
    }
    stats.misses++;
    const result = await transform(id, filepath, mode);
    const code = result?.code;
    if (typeof code === 'string' && code.length <= MAX_ENTRY_BYTES) {
      try {
        if (!dirMade) mkdirSync(o.dir, { recursive: true });
        dirMade = true;
        writeEntry(entry.file, entry.key, code);
        stats.writes++;
      } catch {
        // not kept: the next run transforms it again
      }
    }
    return result;
  };
  return stats;
}

/** Where the cache is and what every key of it includes. */
export interface CacheAt {
  root: string;
  dir: string;
  salt: string;
}

/** The code the cache holds for this module as it is now, if any. */
export function cachedTransform(o: CacheAt, id: string, filepath: string, mode: string): string | undefined {
  const entry = entryOf(o, id, filepath, mode);
  return entry && readEntry(entry.file, entry.key);
}

/** A module's entry file and the key it must carry; undefined for a module not cached (outside the root, a dependency, unreadable). */
function entryOf(o: CacheAt, id: string, filepath: string, mode: string): { file: string; key: string } | undefined {
  const rel = relative(o.root, filepath);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || rel.split(/[\\/]/).includes('node_modules')) return undefined;
  let source: Buffer;
  try {
    source = readFileSync(filepath);
  } catch {
    return undefined;
  }
  // The root too: the code's source map names the file by its absolute path.
  const key = createHash('sha256');
  for (const part of [o.salt, o.root, mode, id]) key.update(part).update('\0');
  return { file: entryFile(o, id, mode), key: key.update(source).digest('hex') };
}

/** One entry per module and mode: an edit replaces it. */
function entryFile(o: CacheAt, id: string, mode: string): string {
  return join(o.dir, `${createHash('sha256').update(`${o.root}\0${mode}\0${id}`).digest('hex').slice(0, 32)}.js`);
}

/** An entry: one header line (the key and the code's digest), then the code. */
function readEntry(file: string, key: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const nl = text.indexOf('\n');
  if (nl < 0) return undefined;
  const [k, digest] = text.slice(0, nl).split(' ');
  if (k !== key) return undefined;
  const code = text.slice(nl + 1);
  return createHash('sha256').update(code).digest('hex') === digest ? code : undefined;
}

function writeEntry(file: string, key: string, code: string): void {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    writeFileSync(tmp, `${key} ${createHash('sha256').update(code).digest('hex')}\n${code}`, { flag: 'wx' });
    renameSync(tmp, file);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      // never created
    }
    throw e;
  }
}
