/**
 * A CLI command run once per `npm test` and read by every test that asks for the same one
 * (docs/development.md, "Shared runs"). Several test files used to start the same
 * `hps-conformance run` against the same embedded reference, each paying its 3 to 20 s of CPU on
 * a 2-core machine; a test that only reads a run's exit status, output or report now reads one
 * made once.
 *
 * The key is the command line, the environment the test adds and a hash of the package's source
 * files (their paths, sizes and modification times): an edit made while the tests run is never
 * answered by a run of the code before it. The runs live in a directory made for this vitest
 * invocation by test/support/shared-runs-setup.ts (vitest.config.ts's globalSetup), removed when
 * it ends: a second `npm test` runs them again. Without it (another config) each process keeps its
 * own, which shares nothing and stays correct.
 *
 * Forks and worker threads ask at the same time: the first takes the key's lock (an atomic
 * mkdir holding its pid), runs the command and writes its outcome (written whole, then renamed);
 * the others wait for the outcome, or take over the lock of a process that died holding it.
 * The report directory is shared: a test reads it and never writes into it.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inject } from 'vitest';
import { runChild } from './run-child.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** This vitest invocation's directory of shared runs (test/support/shared-runs-setup.ts). */
    sharedRunsDir: string;
  }
}

export interface SharedRun {
  /** Exit status; null when the run was killed at its deadline. */
  status: number | null;
  stdout: string;
  stderr: string;
  /** The run's --report directory: read it, never write into it. */
  reportDir: string;
}

const ROOT = resolve(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'hps-conformance.mjs');
/** What the CLI runs: a change to any file under these changes the key. */
const SOURCES = ['bin', 'catalogue', 'cli', 'core', 'load', 'merchant', 'references', 'results', 'service', 'suites', 'package.json'];
const POLL_MS = 250;

/**
 * One rule against the embedded reference, quiet and uncoloured, outside GitHub Actions: read by
 * test/cli-help.test.ts (no colour under NO_COLOR) and test/run-options.test.ts (--no-progress
 * prints nothing on stderr).
 */
export const QUIET_ONE_RULE = {
  args: ['--rule', 'AUTH-MISSING-KEY', '--seed', '1', '--runs', '5', '--no-progress'],
  env: { NO_COLOR: '1', FORCE_COLOR: undefined, CI: 'true', GITHUB_ACTIONS: undefined, GITHUB_STEP_SUMMARY: undefined },
} as const;

const inProcess = new Map<string, Promise<SharedRun>>();
let ownDir: string | undefined;

interface SharedRunOptions {
  /** Added to this process's environment; undefined unsets a variable. */
  env?: Record<string, string | undefined>;
  timeoutMs: number;
}

/**
 * `hps-conformance run ARGS --report DIR` (ARGS without --report), with `env` added to this
 * process's environment, made once per `npm test`; every caller gets the same outcome.
 * `timeoutMs` bounds the run and, for a caller that waits for another process's run, the wait.
 */
export function sharedRun(args: readonly string[], o: SharedRunOptions): Promise<SharedRun> {
  if (args.includes('--report')) throw new Error('sharedRun: the report directory is the shared run\'s own; leave --report out');
  // undefined (a variable unset) is not the same run as a variable left as it is: null in the key.
  const env = Object.entries(o.env ?? {}).map(([k, v]) => [k, v ?? null]);
  const key = createHash('sha256').update(JSON.stringify({ args, env, sources: sourcesHash() })).digest('hex').slice(0, 16);
  let run = inProcess.get(key);
  if (!run) inProcess.set(key, (run = once(join(sessionDir(), key), args, o)));
  return run;
}

function sessionDir(): string {
  let dir: string | undefined;
  try {
    dir = inject('sharedRunsDir');
  } catch {
    dir = undefined;
  }
  return dir ?? (ownDir ??= mkdtempSync(join(tmpdir(), 'hps-shared-runs-')));
}

async function once(dir: string, args: readonly string[], o: SharedRunOptions): Promise<SharedRun> {
  const outcome = join(dir, 'outcome.json');
  const lock = `${dir}.lock`;
  const deadline = Date.now() + o.timeoutMs + 30_000;
  for (;;) {
    if (existsSync(outcome)) return JSON.parse(readFileSync(outcome, 'utf8')) as SharedRun;
    if (takeLock(lock)) break;
    if (Date.now() > deadline) throw new Error(`sharedRun: no outcome of \`run ${args.join(' ')}\` within ${o.timeoutMs + 30_000} ms`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  try {
    rmSync(dir, { recursive: true, force: true });
    const reportDir = join(dir, 'report');
    mkdirSync(reportDir, { recursive: true });
    const env = { ...process.env };
    for (const [k, v] of Object.entries(o.env ?? {})) if (v === undefined) delete env[k]; else env[k] = v;
    const r = await runChild(process.execPath, [BIN, 'run', ...args, '--report', reportDir], { env, timeoutMs: o.timeoutMs });
    const result: SharedRun = { ...r, reportDir };
    writeFileSync(`${outcome}.tmp`, JSON.stringify(result));
    renameSync(`${outcome}.tmp`, outcome);
    return result;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The lock is a directory holding its owner's pid; a lock whose owner has died is taken over. */
function takeLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), String(process.pid));
    return true;
  } catch {
    let owner = NaN;
    try {
      owner = Number(readFileSync(join(lock, 'pid'), 'utf8'));
    } catch {
      return false; // being made or removed right now: look again at the next poll
    }
    if (Number.isInteger(owner) && owner > 0 && !alive(owner)) rmSync(lock, { recursive: true, force: true });
    return false;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Paths, sizes and modification times of the CLI's source files (about 500 stats, a few ms, at every call). */
function sourcesHash(): string {
  const h = createHash('sha256');
  const walk = (p: string) => {
    const s = statSync(p, { throwIfNoEntry: false });
    if (!s) return;
    if (s.isDirectory()) {
      for (const e of readdirSync(p).sort()) if (e !== 'node_modules') walk(join(p, e));
      return;
    }
    h.update(`${p}\0${s.size}\0${s.mtimeMs}\n`);
  };
  for (const s of SOURCES) walk(join(ROOT, s));
  return h.digest('hex');
}
