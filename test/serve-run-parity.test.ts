/**
 * `serve` and `run` agree (README: `run --profile .hps/reference-profile.json` gives the same
 * verdict as `npm run conformance`): `serve` starts the reference with the embedded run's time
 * scale by default, so the rule that needs the whole retry schedule (HOOK-MAX-ATTEMPTS) runs
 * against it instead of being SKIP. And the planted faults are discoverable: `serve --list-faults`
 * lists every one, and docs/faults.md is the same list.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { faultRows, faultsMarkdown } from '../cli/fault-list.ts';
import { FAULT_NAMES } from '../references/service/fault-registry.ts';
import { EMBEDDED_TIME_SCALE, freePort } from '../service/harness/main/embedded.ts';
import { runChild } from './support/run-child.ts';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'hps-conformance.mjs');
const ENV = { ...process.env, NO_COLOR: '1', CI: 'true' };

async function waitFor(file: string, deadlineMs: number): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!existsSync(file)) {
    if (Date.now() > end) throw new Error(`${file} not written within ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 200));
}

describe('serve and run: the same default time scale', () => {
  it('serve\'s profile carries the embedded run\'s time scale, and HOOK-MAX-ATTEMPTS runs against it (PASS, not SKIP)', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'hps-serve-'));
    const profile = join(tmp, 'reference-profile.json');
    const sinkPort = await freePort();
    const serve = spawn(
      process.execPath,
      [BIN, 'serve', '--port', '0', '--webhook-url', `http://127.0.0.1:${sinkPort}`, '--profile-out', profile],
      { env: ENV, stdio: 'ignore' },
    );
    try {
      await waitFor(profile, 60_000);
      const p = JSON.parse(readFileSync(profile, 'utf8')) as { webhooks: { time_scale: number } };
      expect(p.webhooks.time_scale).toBe(EMBEDDED_TIME_SCALE);
      const report = join(tmp, 'r');
      const r = await runChild(
        process.execPath,
        [BIN, 'run', '--profile', profile, '--rule', 'HOOK-MAX-ATTEMPTS', '--seed', '1', '--report', report, '--no-progress'],
        { env: ENV, timeoutMs: 240_000 },
      );
      const rep = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')) as { rules: Array<{ id: string; status: string }> };
      expect(rep.rules, `${r.stdout}\n${r.stderr}`).toEqual([expect.objectContaining({ id: 'HOOK-MAX-ATTEMPTS', status: 'pass' })]);
      expect(r.status).toBe(0);
    } finally {
      serve.kill('SIGTERM');
    }
  }, 300_000);

  it('serve --help states the default, the same number', async () => {
    const r = await runChild(process.execPath, [BIN, 'serve', '--help'], { env: { ...ENV, COLUMNS: '400' }, timeoutMs: 60_000 });
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(`(default ${EMBEDDED_TIME_SCALE}, as run's embedded reference`);
    const run = await runChild(process.execPath, [BIN, 'run', '--help'], { env: { ...ENV, COLUMNS: '400' }, timeoutMs: 60_000 });
    expect(run.stdout.replace(/\s+/g, ' ')).toContain(`(default ${EMBEDDED_TIME_SCALE})`);
  }, 120_000);
});

describe('the planted faults, listed', () => {
  it('every fault is listed once, under the area whose registry declares it', () => {
    const rows = faultRows();
    expect(rows.map((r) => r.name).sort()).toEqual([...FAULT_NAMES].sort());
    for (const r of rows) {
      expect(r.what.length, r.name).toBeGreaterThan(20);
      expect(r.rules.length, r.name).toBeGreaterThan(0);
    }
  });

  it('serve --list-faults prints every name with its area and sentence, exit 0', async () => {
    const r = await runChild(process.execPath, [BIN, 'serve', '--list-faults'], { env: ENV, timeoutMs: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    for (const row of faultRows()) {
      expect(r.stdout).toContain(`  ${row.name}\n      ${row.what}\n`);
    }
    expect(r.stdout).toMatch(/^auth$/m);
    expect(r.stdout).toMatch(/^infrastructure \(negative controls/m);
  }, 60_000);

  it('an unknown fault name: one line, exit 2, the similar names and where the list is', async () => {
    const r = await runChild(process.execPath, [BIN, 'serve', '--fault', 'revoked-key', '--port', '0'], { env: ENV, timeoutMs: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('similar: revoked-key-accepted');
    expect(r.stderr).toContain('serve --list-faults');
  }, 60_000);

  it('docs/faults.md is the same list (regenerate: npm run docs:faults)', () => {
    expect(readFileSync(join(ROOT, 'docs', 'faults.md'), 'utf8')).toBe(faultsMarkdown());
  });
});
