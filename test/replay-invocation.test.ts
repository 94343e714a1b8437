/**
 * Replay lines say the command the user typed (issue "Honest at every edge a user meets", item 5):
 * `hps-conformance run …` is not on PATH in a clone. The rule (core/invocation.ts, docs/proof.md "Replay
 * lines"): started by npm (npx, npm exec, an npm script) → `npx hps-conformance`; through the
 * installed command → `hps-conformance`; as a file → `node` and the file, relative to the working
 * directory when under it. One run with a planted fault checks the printed line and report.json.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { invokedAs } from '../core/invocation.ts';
import { replayCommand } from '../results/verdict/replay.ts';

const ROOT = join(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'hps-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the command a replay line starts with', () => {
  it('started by npm (npx, npm exec, an npm script): npx hps-conformance', () => {
    expect(invokedAs({ npm_command: 'exec' }, '/x/node_modules/.bin/hps-conformance', '/x')).toBe('npx hps-conformance');
    expect(invokedAs({ npm_lifecycle_event: 'conformance', npm_command: 'run-script' }, '/repo/bin/hps-conformance.mjs', '/repo'))
      .toBe('npx hps-conformance');
  });

  it('through the installed command on PATH: hps-conformance', () => {
    expect(invokedAs({}, '/usr/local/bin/hps-conformance', '/srv/u')).toBe('hps-conformance');
  });

  it('as a file: node and the file, relative under the working directory, else absolute (quoted when it must be)', () => {
    expect(invokedAs({}, '/repo/bin/hps-conformance.mjs', '/repo')).toBe('node bin/hps-conformance.mjs');
    expect(invokedAs({}, '/repo/bin/hps-conformance.mjs', '/elsewhere')).toBe('node /repo/bin/hps-conformance.mjs');
    expect(invokedAs({}, '/my repo/bin/hps-conformance.mjs', '/tmp')).toBe(`node '/my repo/bin/hps-conformance.mjs'`);
  });

  it('replayCommand starts with it (hps-conformance when none is known)', () => {
    const ctx = { profilePath: null, seed: 5, runs: 100, replayArgs: [] };
    expect(replayCommand({ ...ctx, command: 'npx hps-conformance' }, ['AUTH-MISSING-KEY'])).toBe(
      'npx hps-conformance run --rule AUTH-MISSING-KEY --seed=5',
    );
    expect(replayCommand(ctx, ['AUTH-MISSING-KEY'])).toBe('hps-conformance run --rule AUTH-MISSING-KEY --seed=5');
  });
});

describe('a failing run from a clone', () => {
  it('node bin/hps-conformance.mjs run …: the printed replay line and report.json\'s start with node bin/hps-conformance.mjs', async () => {
    const report = join(dir, 'r');
    const r = await new Promise<{ code: number; out: string }>((res) => execFile(
      process.execPath,
      ['bin/hps-conformance.mjs', 'run', '--rule', 'AUTH-MISSING-KEY', '--fault', 'invalid-api-key-status-403', '--seed', '3', '--report',
        report, '--no-progress'],
      // Not started by npm, whatever started vitest.
      { cwd: ROOT, env: { ...process.env, npm_command: '', npm_lifecycle_event: '', CI: '1' }, timeout: 120_000 },
      (e, out) => res({ code: e ? ((e as { code?: number }).code ?? 1) : 0, out }),
    ));
    expect(r.code).toBe(1);
    expect(r.out).toContain(
      'replay: node bin/hps-conformance.mjs run --rule AUTH-MISSING-KEY --seed=3 --fault invalid-api-key-status-403',
    );
    const json = readFileSync(join(report, 'report.json'), 'utf8');
    expect(json).toContain('"command": "node bin/hps-conformance.mjs run --rule AUTH-MISSING-KEY --seed=3');
    expect(json).not.toContain('"command": "hps-conformance run');
  }, 120_000);
});
