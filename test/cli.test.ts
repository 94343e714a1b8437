/**
 * The CLI's contract with its users: exit statuses and one-line errors for bad
 * usage, a bad profile, an unreachable target and a target answering garbage.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const BIN = join(import.meta.dirname, '..', 'bin', 'hps-conformance.mjs');
const dir = mkdtempSync(join(tmpdir(), 'hps-cli-'));

function cliAsync(args: string[]): Promise<{ code: number | null; err: string }> {
  return new Promise((res) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { timeout: 170_000 },
      (e, _out, err) => res({ code: e ? ((e as { code?: number }).code ?? 1) : 0, err }),
    );
  });
}

function cli(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function profile(p: unknown): string {
  const f = join(dir, `p-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(f, JSON.stringify(p));
  return f;
}

async function freePort(): Promise<number> {
  return new Promise((res) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

describe('hps-conformance CLI', () => {
  it('lists the catalogue with --dry-run, filtered by --area and --rule', () => {
    const r = cli(['run', '--dry-run', '--area', 'idempotency', '--rule', 'IDEM-CONFLICT,IDEM-REPLAY']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('IDEM-CONFLICT');
    expect(r.out).toContain('IDEM-REPLAY ');
    expect(r.out).toContain('2 rules: 2 MUST');
  });

  // Eight CLI start-ups: side by side, and with a bound for a machine running other suites at once
  // (one after the other they took 73-95 s with three npm test runs on 2 cores).
  it('exits 2 with one line for an unknown option, area or rule', async () => {
    const cases = [
      ['run', '--bogus'],
      ['run', '--dry-run', '--area', 'nope'],
      ['run', '--dry-run', '--rule', 'NOPE-1'],
      ['frobnicate'],
      ['run', '--seed', 'abc'],
      ['run', '--variant', 'beta'],
      ['serve', '--variant', 'beta'],
      ['run', '--profile', 'p.json', '--variant', 'alt'],
    ];
    const results = await Promise.all(cases.map((args) => cliAsync(args)));
    cases.forEach((args, i) => {
      const r = results[i]!;
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err.trim().split('\n')[0]).toMatch(/^hps-conformance: /);
      expect(r.err).not.toMatch(/\n\s+at /);
    });
  }, 180_000);

  it('exits 2 naming the field for a broken profile', () => {
    const r = cli(['run', '--profile', profile({ base_url: 'http://127.0.0.1:1', keys: { test: 'sk_nope' } })]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('keys.test: must start with pt_test_sk_');
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });

  it('exits 2 naming an unset ${ENV} variable', () => {
    const r = cli(['run', '--profile', profile({ base_url: 'http://127.0.0.1:1', keys: { test: '${HPS_TEST_UNSET_KEY}' } })]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('keys.test: environment variable HPS_TEST_UNSET_KEY is not set');
  });

  it('exits 3 with one line when the target cannot be reached', async () => {
    const port = await freePort();
    const r = cli([
      'run',
      '--area',
      'auth',
      '--profile',
      profile({ base_url: `http://127.0.0.1:${port}`, keys: { test: 'pt_test_sk_secretvalue1234' } }),
    ]);
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/could not be reached/);
    expect(r.err).not.toContain('secretvalue');
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });

  it('exits 3 with one line when the target answers garbage', async () => {
    const server = createServer((s) => s.end('HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello')).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const port = (server.address() as { port: number }).port;
    try {
      const r = await new Promise<{ code: number | null; err: string }>((res) => {
        import('node:child_process').then(({ execFile }) =>
          execFile(process.execPath, [
            BIN,
            'run',
            '--area',
            'auth',
            '--profile',
            profile({ base_url: `http://127.0.0.1:${port}`, keys: { test: 'pt_test_sk_secretvalue1234' } }),
          ], (e, _o, err) =>
            res({ code: e ? (e as { code?: number }).code ?? 1 : 0, err }),
          ),
        );
      });
      expect(r.code).toBe(3);
      expect(r.err).toMatch(/not JSON/);
    } finally {
      server.close();
    }
  });

  it('re-renders reports from report.json with `report DIR`, and exits 2 without one', () => {
    const r = cli(['report', join(dir, 'nothing-here')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/report\.json does not exist/);
  });
});
