/**
 * The CLI behaves like the tools its users know: `--help` on every command
 * lists every option with a description, `--version` prints package.json's
 * version, unknown options still exit 2 with one line; colour follows
 * NO_COLOR / FORCE_COLOR.
 */
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AREAS } from '../catalogue/index.ts';
import { colourEnabled, paintLine, palette } from '../cli/colour.ts';
import { exitLine } from '../cli/exit-lines.ts';
import { COMMANDS } from '../cli/main.ts';
import { runChild } from './support/run-child.ts';
import { QUIET_ONE_RULE, sharedRun } from './support/shared-run.ts';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'hps-conformance.mjs');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** Async (support/run-child.ts): a blocking spawnSync would starve the vitest worker's RPC on a busy machine. */
async function cli(args: string[], env: Record<string, string> = {}) {
  const r = await runChild(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, timeoutMs: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('CLI --help and --version', () => {
  it('prints the version from package.json with --version and -V, exit 0', async () => {
    for (const r of await Promise.all(['--version', '-V'].map((a) => cli([a])))) {
      expect(r.code).toBe(0);
      expect(r.out.trim()).toBe(VERSION);
    }
  });

  it('every command has --help listing every option of its table row with a description', async () => {
    // Every command's --help side by side, then checked in the table's order.
    const helps = await Promise.all(Object.keys(COMMANDS).map((name) => cli([name, '--help'], { COLUMNS: '400' })));
    for (const [i, [name, def]] of Object.entries(COMMANDS).entries()) {
      const r = helps[i]!;
      expect(r.code, name).toBe(0);
      const flat = r.out.replace(/\s+/g, ' ');
      for (const [long, o] of Object.entries(def.options)) {
        expect(o.help.length, `${name} --${long} has a description`).toBeGreaterThan(10);
        expect(flat, `${name} --help lists --${long}`).toContain(`--${long}`);
        expect(flat, `${name} --help describes --${long}`).toContain(o.help.replace(/\s+/g, ' '));
      }
      // Its own exit statuses, last.
      expect(def.exits, `${name} has its own exit statuses`).toBeDefined();
      expect(r.out.trimEnd().endsWith(exitLine(def.exits!)), `${name} --help ends with its own exit statuses`).toBe(true);
    }
  }, 120_000);

  it('proxy, serve and report list their own exit statuses, not run\'s', async () => {
    const proxy = await cli(['proxy', '--help'], { COLUMNS: '400' });
    expect(proxy.out).toContain('3 the upstream unreachable or not the API at the start, or it answered none of the application\'s ' +
      'requests');
    expect(proxy.out).not.toMatch(/4 a class --require|130\/143 interrupted/);
    const [serve, report] = await Promise.all([cli(['serve', '--help']), cli(['report', '--help'])]);
    const last = (out: string) => out.trimEnd().split('\n').at(-1)!;
    expect(last(serve.out)).toBe('exit status: 0 stopped by SIGINT / SIGTERM (or --list-faults printed) · 2 bad usage (an option, a fault ' +
      'name, the port or --profile-out)');
    expect(last(report.out)).toMatch(/^exit status: 0 conformant .*130\/143 the run was interrupted \(its own status kept\)$/);
    for (const r of [serve, report]) expect(r.out).not.toMatch(/4 a class --require|5 the report directory failed|3 target unreachable/);
  });

  it('run --help lists the areas and the exit statuses', async () => {
    const r = await cli(['run', '--help']);
    for (const a of AREAS) expect(r.out).toContain(a);
    expect(r.out).toMatch(/3 target unreachable/);
  });

  it('the top-level --help lists every command', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    for (const name of Object.keys(COMMANDS)) expect(r.out).toContain(name);
  });

  it('no arguments: the usage, exit 2; unknown option or command: one line, exit 2', async () => {
    const cases = [['run', '--bogus'], ['--bogus'], ['serve', '--nope', '1'], ['frobnicate'], ['report', '--x']];
    const [none, ...results] = await Promise.all([cli([]), ...cases.map((args) => cli(args))]);
    expect(none!.code).toBe(2);
    for (const [i, args] of cases.entries()) {
      const r = results[i]!;
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.err).toMatch(/^hps-conformance: (unknown|too many)/);
    }
  });

  it('an option missing its value and a bad --level exit 2 with one line', async () => {
    const cases = [['run', '--seed'], ['run', '--level', 'must!', '--dry-run'], ['run', '--level', 'loud']];
    const results = await Promise.all(cases.map((args) => cli(args)));
    for (const [i, args] of cases.entries()) {
      const r = results[i]!;
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }
  });
});

describe('colour', () => {
  const tty = { isTTY: true };
  const pipe = { isTTY: false };
  it('on a TTY by default, never on a pipe', () => {
    expect(colourEnabled(tty, {})).toBe(true);
    expect(colourEnabled(pipe, {})).toBe(false);
    expect(colourEnabled(tty, { TERM: 'dumb' })).toBe(false);
  });
  it('NO_COLOR switches it off, FORCE_COLOR on (and FORCE_COLOR=0 off)', () => {
    expect(colourEnabled(tty, { NO_COLOR: '1' })).toBe(false);
    expect(colourEnabled(tty, { NO_COLOR: '' })).toBe(true);
    expect(colourEnabled(pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(colourEnabled(pipe, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(true);
    expect(colourEnabled(tty, { FORCE_COLOR: '0' })).toBe(false);
  });
  it('paints status words and the verdict only when enabled', () => {
    expect(paintLine('  FAIL  AUTH-X — y', palette(false))).toBe('  FAIL  AUTH-X — y');
    expect(paintLine('  FAIL  AUTH-X — y', palette(true))).toBe('  \x1b[31mFAIL\x1b[39m  AUTH-X — y');
    expect(paintLine('verdict: conformant · pass 3', palette(true))).toContain('\x1b[32m');
  });
  it('a run piped with FORCE_COLOR=1 is coloured, with NO_COLOR=1 it is not', async () => {
    const coloured = await cli(
      ['run', '--rule', 'AUTH-MISSING-KEY', '--seed', '1', '--runs', '5', '--report', join(tmpdir(), 'hps-test-colour'), '--no-progress'],
      { FORCE_COLOR: '1' },
    );
    expect(coloured.out).toContain('\x1b[32m\x1b[1mverdict: conformant');
    // The same run with NO_COLOR=1 as test/run-options.test.ts's --no-progress case: made once (support/shared-run.ts).
    const plain = await sharedRun(QUIET_ONE_RULE.args, { env: QUIET_ONE_RULE.env, timeoutMs: 120_000 });
    expect(plain.stdout).toContain('verdict: conformant');
    expect(plain.stdout).not.toContain('\x1b[');
  }, 120_000);
});
