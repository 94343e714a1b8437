/** Runs the CLI as a user would (bin/hps-conformance.mjs), without blocking the test's event loop. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';
import { main } from '../../cli/main.ts';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'hps-conformance.mjs');
export const TMP = mkdtempSync(join(tmpdir(), 'hps-load-'));

export interface CliResult {
  code: number | null;
  out: string;
  err: string;
}

export function cli(args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [
      BIN,
      ...args,
    ], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, HPS_DEBUG: '' } }, (error, stdout, stderr) => {
      const code = error ? ((error as { code?: unknown }).code as number | null) : 0;
      resolve({ code: typeof code === 'number' ? code : null, out: stdout, err: stderr });
    });
  });
}

/**
 * The same command in this process (cli/main.ts `main`, as bin/hps-conformance.mjs calls it),
 * with stdout and stderr captured: no tsx start-up per case, so the file stays fast.
 */
export async function runMain(args: string[]): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  try {
    const code = await main(args);
    return { code, out: out.map((l) => l + '\n').join(''), err: err.map((l) => l + '\n').join('') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

export function reportDir(name: string): string {
  return join(TMP, `${name}-${Math.random().toString(36).slice(2, 8)}`);
}

export function readLoadJson(dir: string): any {
  return JSON.parse(readFileSync(join(dir, 'load.json'), 'utf8'));
}

export function writeProfile(p: unknown): string {
  const f = join(TMP, `profile-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(f, JSON.stringify(p));
  return f;
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** A secret key that is not redacted: the prefix followed by at least 5 key characters. */
export const UNREDACTED_KEY = /pt_(?:test|live)_sk_[A-Za-z0-9_-]{5,}/;

/** Runs `fn` with these environment variables set (undefined: unset), restoring them after. */
export async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const apply = (v: Record<string, string | undefined>): void => {
    for (const [k, x] of Object.entries(v)) {
      if (x === undefined) delete process.env[k];
      else process.env[k] = x;
    }
  };
  apply(vars);
  try {
    return await fn();
  } finally {
    apply(saved);
  }
}
