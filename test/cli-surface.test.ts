/**
 * The command line's smaller promises (issue 23): `run URL` is short for `--base-url URL` (the
 * key from --key-env or HPS_KEY); every subcommand's help is its own and its unknown options are
 * refused (`load merge`); `run --help` lists only the areas `run --area` takes.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AREAS, SIDE_COMMAND } from '../catalogue/index.ts';
import { withPositionalUrl } from '../cli/target-flags.ts';
import { HarnessError } from '../core/errors.ts';
import { startReferenceServer } from '../core/targets/reference-server.ts';
import { runChild } from './support/run-child.ts';

const BIN = join(import.meta.dirname, '..', 'bin', 'hps-conformance.mjs');
const ENV = { ...process.env, NO_COLOR: '1', CI: 'true', COLUMNS: '400' };
const cli = (args: string[], env: NodeJS.ProcessEnv = ENV) => runChild(process.execPath, [BIN, ...args], { env, timeoutMs: 180_000 });

describe('run URL', () => {
  const usage = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      expect(e).toBeInstanceOf(HarnessError);
      expect((e as HarnessError).exitCode).toBe(2);
      return (e as Error).message;
    }
    throw new Error('no usage error');
  };

  it('is --base-url URL with --key-env VAR, or with HPS_KEY from the environment', () => {
    expect(withPositionalUrl(
      { 'key-env': 'MY_KEY' },
      ['https://api.test'],
      {},
    )).toEqual({ 'key-env': 'MY_KEY', 'base-url': 'https://api.test' });
    expect(withPositionalUrl(
      {},
      ['http://127.0.0.1:4010'],
      { HPS_KEY: 'x' },
    )).toEqual({ 'key-env': 'HPS_KEY', 'base-url': 'http://127.0.0.1:4010' });
    expect(withPositionalUrl({ area: ['auth'] }, [], {})).toEqual({ area: ['auth'] });
  });

  it('refuses it without a key, twice a target, more than one argument or a non-URL (exit 2, one line)', () => {
    expect(usage(() => withPositionalUrl({}, ['https://api.test'], {}))).toMatch(/--key-env VAR, or the HPS_KEY environment variable/);
    expect(usage(() => withPositionalUrl(
      { 'base-url': 'https://b.test', 'key-env': 'K' },
      ['https://api.test'],
      {},
    ))).toMatch(/give the target once/);
    expect(usage(() => withPositionalUrl({ profile: 'p.json' }, ['https://api.test'], { HPS_KEY: 'k' }))).toMatch(/give the target once/);
    expect(usage(() => withPositionalUrl({}, ['https://a.test', 'https://b.test'], { HPS_KEY: 'k' }))).toMatch(/one target URL, got 2/);
    expect(usage(() => withPositionalUrl({}, ['routing'], { HPS_KEY: 'k' }))).toMatch(/the argument is the target's base URL/);
  });

  it('runs a rule against a server named only by its URL, the key in HPS_KEY', async () => {
    const ref = await startReferenceServer({ webhookBaseUrl: 'http://127.0.0.1:9' });
    try {
      const report = join(mkdtempSync(join(tmpdir(), 'hps-run-url-')), 'r');
      const r = await cli(
        ['run', ref.url, '--rule', 'AUTH-MISSING-KEY', '--seed', '1', '--report', report, '--no-progress'],
        { ...ENV, HPS_KEY: ref.profile.keys.test },
      );
      expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
      const rep = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')) as { target: { base_url: string }; rules: Array<{ id: string; status: string }> };
      expect(rep.target.base_url).toBe(ref.url);
      expect(rep.rules).toEqual([expect.objectContaining({ id: 'AUTH-MISSING-KEY', status: 'pass' })]);
      expect(r.stdout + r.stderr).not.toContain(ref.profile.keys.test);
      const none = await cli(['run', ref.url, '--rule', 'AUTH-MISSING-KEY'], { ...ENV, HPS_KEY: '' });
      expect(none.status).toBe(2);
      expect(none.stderr.trim().split('\n')).toHaveLength(1);
    } finally {
      await ref.close();
    }
  }, 180_000);
});

describe('every subcommand\'s help is its own', () => {
  it('load merge --help is merge\'s: its DIR argument and threshold flags, none of load\'s generator flags', async () => {
    const r = await cli(['load', 'merge', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Usage: hps-conformance load merge \[options\] \[DIR\.\.\.\]/);
    for (const f of ['--report', '--max-p99-ms', '--allow-short']) expect(r.stdout).toContain(f);
    for (const f of ['--profile', '--connections', '--scenario', '--rate']) expect(r.stdout).not.toMatch(new RegExp(`^\\s+${f}\\b`, 'm'));
  }, 60_000);

  it('load merge refuses an option it does not take (exit 2, one line), even one load takes', async () => {
    for (const args of [['load', 'merge', '--profile', 'x', 'dir'], ['load', 'merge', '--bogus', 'dir']]) {
      const r = await cli(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^hps-conformance: unknown option '--(profile|bogus)'/);
    }
  }, 60_000);

  it('run --help lists the areas run --area takes, and names the merchant side\'s commands apart', async () => {
    const r = await cli(['run', '--help']);
    const line = r.stdout.split('\n').find((l) => l.startsWith('areas: '))!;
    const listed = line.replace(/^areas: /, '').replace(/\s*\(.*$/, '').split(' ');
    expect(listed).toEqual(AREAS.filter((a) => !(a in SIDE_COMMAND)));
    expect(listed).not.toContain('receiver');
    expect(listed).not.toContain('client');
    expect(line).toContain('hps-conformance receiver, client');
  }, 60_000);
});
