/**
 * Bad input at the edges of the CLI gives one clear line and exit 2, never a stack trace
 * (issue 21, item 8): a profile with a UTF-8 byte-order mark loads; a port over 65535 and a
 * deeply nested profile are one line each; `run --dry-run` refuses the flag values `run`
 * refuses; an empty option value is refused, not taken as the default; a reader that goes
 * away (`| head -1`) ends the CLI quietly.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RUN_INT_FLAGS } from '../cli/run-flags.ts';
import { MAX_PROFILE_DEPTH, parseProfile } from '../core/profile.ts';

const BIN = join(import.meta.dirname, '..', 'bin', 'hps-conformance.mjs');
const dir = mkdtempSync(join(tmpdir(), 'hps-cli-edges-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((res) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, HPS_DEBUG: '' }, timeout: 60_000, maxBuffer: 1 << 22 },
      (e, out, err) => res({ code: e ? ((e as { code?: number }).code ?? 1) : 0, out, err }),
    );
  });
}

const KEY = 'pt_test_sk_abcdefghijklmnop';
function profileFile(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** One line on stderr, no stack trace, no "internal error". */
function oneClearLine(err: string): void {
  expect(err.trim().split('\n')).toHaveLength(1);
  expect(err).not.toMatch(/internal error|\n\s+at |RangeError|TypeError/);
}

describe('profiles', () => {
  it('a profile with a UTF-8 byte-order mark loads', () => {
    const profile = parseProfile(`\uFEFF${JSON.stringify({ base_url: 'http://127.0.0.1:4010', keys: { test: KEY } })}`, 'bom.json');
    expect(profile.base_url).toBe('http://127.0.0.1:4010');
  });

  it('port 99999 in base_url: one line naming it, exit 2', async () => {
    const file = profileFile('port.json', JSON.stringify({ base_url: 'http://127.0.0.1:99999', keys: { test: KEY } }));
    const r = await cli(['run', '--profile', file, '--report', join(dir, 'r1')]);
    expect(r.code).toBe(2);
    oneClearLine(r.err);
    expect(r.err).toMatch(/base_url: port 99999 is over 65535/);
  });

  it('a deeply nested profile: one line, exit 2 (valid JSON and broken JSON)', async () => {
    const deep = `{"base_url":"http://127.0.0.1:1","keys":{"test":"${KEY}"},"x":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    for (const [name, text] of [['deep.json', deep], ['deep-broken.json', deep.slice(0, -1)]] as const) {
      const r = await cli(['run', '--profile', profileFile(name, text), '--report', join(dir, 'r2')]);
      expect(r.code).toBe(2);
      oneClearLine(r.err);
      expect(r.err).toMatch(new RegExp(`nested deeper than ${MAX_PROFILE_DEPTH} levels`));
    }
  }, 60_000);
});

describe('flags', () => {
  it('run --dry-run refuses --runs 0 --time-scale 0 as run does', async () => {
    const r = await cli(['run', '--dry-run', '--runs', '0', '--time-scale', '0']);
    expect(r.code).toBe(2);
    oneClearLine(r.err);
    expect(r.err).toMatch(/--runs 0: must be an integer from 1 to 100000/);
  });

  it('every number flag out of range is refused alike by run and run --dry-run', async () => {
    for (const [name, [min]] of Object.entries(RUN_INT_FLAGS)) {
      const bad = String(min - 1);
      const [run, dry] = await Promise.all([
        cli(['run', `--${name}`, bad, '--report', join(dir, 'r3')]),
        cli(['run', '--dry-run', `--${name}`, bad]),
      ]);
      expect([run.code, dry.code], name).toEqual([2, 2]);
      expect(dry.err, name).toBe(run.err);
    }
  }, 120_000);

  it("an empty option value (--report '') is refused, not taken as the default", async () => {
    for (const args of [
      ['run', '--report', '', '--rule', 'AUTH-MISSING-KEY'],
      ['load', '--report', ''],
      ['run', '--dry-run', '--area', ''],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      oneClearLine(r.err);
      expect(r.err).toMatch(/needs a value \(got an empty one\)/);
    }
  });
});

describe('a reader that goes away', () => {
  it('run --dry-run into a closed pipe ends quietly: no EPIPE, no stack trace', async () => {
    const child = spawn(process.execPath, [BIN, 'run', '--dry-run'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy(); // as `| head -1` does once it has its line: every write now meets EPIPE
    let err = '';
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    const code = await new Promise<number | null>((res) => child.on('close', (c) => res(c)));
    expect(err).toBe('');
    expect(code).toBe(0);
  }, 60_000);
});
