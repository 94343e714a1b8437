/**
 * The package installs as the README says: `npm run pack:release` builds the release tarball
 * (`npm pack`), `npm install --global` of the tarball into a temporary prefix, then the installed
 * `hps-conformance` works from an empty directory: `run` against the embedded reference (suites
 * found inside the package), a short `load`, a `receiver` run against the embedded reference
 * receiver, and `report DIR`. The install takes its dependencies from the npm cache when it can
 * (`--prefer-offline`; a global install of a tarball resolves from the registry's metadata, so
 * `--offline` is not enough on a machine that only ran `npm ci`).
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runChild } from './support/run-child.ts';

const ROOT = join(import.meta.dirname, '..');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; scripts: Record<string, string> };
const VERSION = PKG.version;

/** Bytes of the files under `dir`, each file once (npm hard-links esbuild's binary into several places). */
function bytesUnder(dir: string, seen = new Set<string>()): number {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = lstatSync(p, { throwIfNoEntry: false }); // a symlink (node_modules/.bin) counts once, at its target
    if (s?.isDirectory()) total += bytesUnder(p, seen);
    else if (s?.isFile() && !seen.has(`${s.dev}:${s.ino}`)) {
      seen.add(`${s.dev}:${s.ino}`);
      total += s.size;
    }
  }
  return total;
}

describe('npm run pack:release and a global install', () => {
  it('installs from the tarball and runs run, load, receiver and report from an empty directory', async () => {
    expect(PKG.scripts['pack:release']).toMatch(/^npm pack\b/);
    const tmp = mkdtempSync(join(tmpdir(), 'hps-pack-'));
    const npm = async (args: string[], cwd: string) => {
      const r = await runChild('npm', args, { cwd, timeoutMs: 240_000 });
      expect(r.status, `npm ${args.join(' ')}\n${r.stderr}`).toBe(0);
      return r;
    };
    await npm(['run', 'pack:release', `--pack-destination=${tmp}`], ROOT);
    const tarball = `hps-conformance-${VERSION}.tgz`;
    expect(readdirSync(tmp)).toContain(tarball);
    const prefix = join(tmp, 'prefix');
    const started = Date.now();
    await npm(['install', '--global', '--prefix', prefix, `./${tarball}`, '--prefer-offline', '--no-audit', '--no-fund', '--silent'], tmp);
    const installMs = Date.now() - started;
    const bin = join(prefix, 'bin', 'hps-conformance');
    const installed = join(prefix, 'lib', 'node_modules', 'hps-conformance');
    expect(existsSync(bin)).toBe(true);
    // nothing of the project's own tests, nor the bench's autocannon, is shipped
    expect(existsSync(join(installed, 'test'))).toBe(false);
    expect(existsSync(join(installed, 'node_modules', 'autocannon'))).toBe(false);
    const mb = bytesUnder(installed) / 1e6;
    console.log(`pack-install: npm install --global of the tarball ${(installMs / 1000).toFixed(1)} s, ${mb.toFixed(1)} MB installed`);
    // The figure docs/development.md states ("about N MB with its dependencies") is this one, within a fifth.
    const stated = Number(/about (\d+) MB with its dependencies/.exec(readFileSync(join(ROOT, 'docs', 'development.md'), 'utf8'))?.[1]);
    expect(mb, `docs/development.md says about ${stated} MB`).toBeGreaterThan(stated * 0.8);
    expect(mb, `docs/development.md says about ${stated} MB`).toBeLessThan(stated * 1.25);

    const empty = join(tmp, 'empty');
    mkdirSync(empty);
    const env = { ...process.env, NO_COLOR: '1', CI: 'true' };
    const hps = (args: string[]) => runChild(bin, args, { cwd: empty, env, timeoutMs: 180_000 });
    const version = await hps(['--version']);
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(VERSION);

    const report = join(tmp, 'run');
    const r = await hps(['run', '--rule', 'AUTH-MISSING-KEY', '--seed', '1', '--report', report]);
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toContain('verdict: conformant');
    const rep = JSON.parse(readFileSync(
      join(report, 'report.json'),
      'utf8',
    )) as { rules: Array<{ id: string; status: string }>; tool: { version: string } };
    expect(rep.rules).toEqual([expect.objectContaining({ id: 'AUTH-MISSING-KEY', status: 'pass' })]);
    expect(rep.tool.version).toBe(VERSION);
    expect(existsSync(join(report, 'certificate.json'))).toBe(true);

    const load = await hps(['load', '--duration', '1', '--warmup', '0', '--connections', '2', '--workers', '1', '--max-p99-ms', '60000', '--report', join(tmp, 'load')]);
    expect(load.status, `${load.stdout}\n${load.stderr}`).toBe(0);
    expect((JSON.parse(readFileSync(join(tmp, 'load', 'load.json'), 'utf8')) as { verdict: string }).verdict).toBe('pass');

    const receiver = await hps(['receiver', '--seed', '1', '--dedup-time-scale', '60', '--report', join(tmp, 'receiver')]);
    expect(receiver.status, `${receiver.stdout}\n${receiver.stderr}`).toBe(0);
    expect(receiver.stdout).toContain('verdict: conformant');

    const rerender = await hps(['report', report]);
    expect(rerender.status, rerender.stderr).toBe(0);
    expect(rerender.stdout).toContain('rendered');
    // nothing was written where the commands ran
    expect(readdirSync(empty)).toEqual([]);
  }, 600_000);
});
