/**
 * A dry run validates what it is given (issue "Honest at every edge a user meets", item 2): the
 * profile, the keys named by environment variables, the TLS files and signing key, the report
 * directory; each bad input gives the line and exit status `run` gives, and nothing is contacted
 * (a loopback server given as the target counts no connection) or left behind.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startCountingServer } from './support/counting-server.ts';

const BIN = join(import.meta.dirname, '..', 'bin', 'hps-conformance.mjs');
const dir = mkdtempSync(join(tmpdir(), 'hps-dry-inputs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const KEY = 'pt_test_sk_dryruninputs0123456789';

function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((res) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, HPS_DEBUG: '', HPS_DRY_KEY: KEY }, timeout: 60_000 },
      (e, out, err) => res({ code: e ? ((e as { code?: number }).code ?? 1) : 0, out, err }));
  });
}

const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

describe('run --dry-run reads and checks every input, as run does', () => {
  const report = () => ['--report', join(dir, 'report')];
  const cases: Array<[string, () => string[]]> = [
    ['a missing profile', () => ['--profile', '/nonexistent.json']],
    ['a profile that is not JSON', () => ['--profile', file('broken.json', '{"base_url": ')]],
    ['a profile naming an unset variable', () => ['--profile', file('env.json', JSON.stringify({
      base_url: 'http://127.0.0.1:9', keys: { test: '${HPS_DRY_UNSET_VAR}' },
    }))]],
    ['--key-env naming an unset variable', () => ['--base-url', 'http://127.0.0.1:9', '--key-env', 'HPS_DRY_UNSET_VAR']],
    ['a report directory under a file', () => ['--report', `${file('plain', '')}/sub`]],
    ['a --ca file that is missing', () => ['--ca', join(dir, 'missing.pem'), ...report()]],
    ['a --sign-key file that is missing', () => ['--sign-key', join(dir, 'missing.pem'), ...report()]],
  ];
  for (const [what, args] of cases) {
    it(`${what}: the line and exit status run gives`, async () => {
      const a = args();
      const [dry, real] = await Promise.all([cli(['run', '--dry-run', ...a]), cli(['run', ...a])]);
      expect(dry.code).toBe(2);
      expect(dry.code).toBe(real.code);
      expect(dry.err.trim().split('\n')).toHaveLength(1);
      expect(dry.err).toBe(real.err);
      expect(dry.err).not.toMatch(/internal error|\n\s+at /);
    }, 60_000);
  }

  it('valid inputs: exit 0, no connection to the target, the report directory not left behind, what was checked said', async () => {
    const target = await startCountingServer({});
    try {
      const out = join(dir, 'not-made', 'deeper');
      const profile = file('ok.json', JSON.stringify({ base_url: target.url, keys: { test: '${HPS_DRY_KEY}' } }));
      const r = await cli(['run', '--dry-run', '--profile', profile, '--rule', 'AUTH-MISSING-KEY', '--report', out]);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toContain(`checked as run would: the profile ${profile}, the report directory (writable); no request was sent`);
      expect(target.connections).toBe(0);
      expect(existsSync(join(dir, 'not-made'))).toBe(false);
    } finally {
      await target.close();
    }
  }, 60_000);
});
