/**
 * The package is installable: `npm pack`, `npm i -g` of the tarball into a
 * temporary prefix, then the installed `hps-conformance` works from another
 * directory against the embedded reference (suites found inside the package).
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runChild } from './support/run-child.ts';

const ROOT = join(import.meta.dirname, '..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('npm pack and a global install', () => {
  it('installs from the tarball and runs a rule from any directory with the embedded reference', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'hps-pack-'));
    const npm = async (args: string[], cwd: string) => {
      const r = await runChild('npm', args, { cwd, timeoutMs: 240_000 });
      expect(r.status, `npm ${args[0]}\n${r.stderr}`).toBe(0);
    };
    await npm(['pack', ROOT, '--pack-destination', tmp, '--silent'], tmp);
    const tarball = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
    expect(tarball).toBeDefined();
    const prefix = join(tmp, 'prefix');
    await npm(['install', '-g', '--prefix', prefix, join(tmp, tarball!), '--prefer-offline', '--no-audit', '--no-fund', '--silent'], tmp);
    const bin = join(prefix, 'bin', 'hps-conformance');
    expect(existsSync(bin)).toBe(true);
    // nothing of the project's own tests is shipped
    expect(existsSync(join(prefix, 'lib', 'node_modules', 'hps-conformance', 'test'))).toBe(false);

    const elsewhere = mkdtempSync(join(tmpdir(), 'hps-pack-cwd-'));
    const env = { ...process.env, NO_COLOR: '1', CI: 'true' };
    const version = await runChild(bin, ['--version'], { cwd: elsewhere, env, timeoutMs: 60_000 });
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(VERSION);

    const report = join(tmp, 'r');
    const r = await runChild(bin, ['run', '--rule', 'AUTH-MISSING-KEY', '--seed', '1', '--report', report], { cwd: elsewhere, env, timeoutMs: 180_000 });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toContain('verdict: conformant');
    const rep = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')) as { rules: Array<{ id: string; status: string }>; tool: { version: string } };
    expect(rep.rules).toEqual([expect.objectContaining({ id: 'AUTH-MISSING-KEY', status: 'pass' })]);
    expect(rep.tool.version).toBe(VERSION);
    expect(existsSync(join(report, 'certificate.json'))).toBe(true);
    expect(existsSync(join(elsewhere, 'reports'))).toBe(false);
  }, 420_000);
});
