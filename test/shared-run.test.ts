/**
 * test/support/shared-run.ts: the same command line and environment is one run, whoever asks; another
 * environment is another run; the report directory is the helper's own. Each run here is a dry run
 * (no target, no suite: about half a second of CPU).
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sharedRun } from './support/shared-run.ts';

const DRY = ['--dry-run', '--rule', 'AUTH-MISSING-KEY'];

describe('sharedRun', () => {
  it('gives every caller of the same command line and environment the one outcome; another environment is another run', async () => {
    const [a, b] = await Promise.all([
      sharedRun(DRY, { env: { NO_COLOR: '1' }, timeoutMs: 60_000 }),
      sharedRun(DRY, { env: { NO_COLOR: '1' }, timeoutMs: 60_000 }),
    ]);
    expect(a.status, a.stderr).toBe(0);
    expect(b).toBe(a);
    expect(a.stdout).toContain('AUTH-MISSING-KEY');
    const unset = await sharedRun(DRY, { env: { NO_COLOR: undefined }, timeoutMs: 60_000 });
    expect(unset.status, unset.stderr).toBe(0);
    expect(unset.reportDir).not.toBe(a.reportDir);
    // The outcome is on disk beside its report directory, for the forks and threads that ask later.
    expect(existsSync(a.reportDir.replace(/report$/, 'outcome.json'))).toBe(true);
  }, 120_000);

  it('refuses --report: the report directory is the shared run\'s own', () => {
    expect(() => sharedRun([...DRY, '--report', '/tmp/x'], { timeoutMs: 1000 })).toThrow(/leave --report out/);
  });
});
