/**
 * Configuration trouble is never a conformance verdict: a key the service does not know stops the
 * run before any rule with exit 2 naming the profile field; a base URL where no /v1 route answers
 * like the API stops it with exit 3 saying what was tried; a key rotated during the run makes the
 * rules left ERROR (exit 3), never FAIL.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runThroughProxy } from '../perf/field-run.ts';
import { startReference, type RunningReference } from '../../references/service/index.ts';

const BIN = resolve(import.meta.dirname, '../../bin/hps-conformance.mjs');

function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (out += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => (clearTimeout(timer), done({ code, out })));
  });
}

describe('configuration trouble', () => {
  let ref: RunningReference;
  const report = mkdtempSync(join(tmpdir(), 'hps-config-'));
  beforeAll(async () => {
    ref = await startReference({});
  });
  afterAll(async () => ref?.close());

  it('a key the service does not know: exit 2, one line naming keys.test, no rule judged', async () => {
    const r = await cli(
      ['run', '--base-url', ref.url, '--key-env', 'HPS_KEY', '--report', report],
      { HPS_KEY: 'pt_test_sk_notakeythisservicehasever0' },
    );
    console.log(`wrong key: exit ${r.code}: ${r.out.trim()}`);
    expect(r.code).toBe(2);
    expect(r.out.trim().split('\n')).toHaveLength(1);
    expect(r.out).toMatch(/^hps-conformance: keys\.test: the service answered 401 invalid_api_key .*is the key current\?/);
    expect(r.out).not.toContain('pt_test_sk_notakeythisservicehasever0');
  });

  it('a wrong base path: exit 3, one line saying no /v1 route answers like the API and what was tried', async () => {
    const r = await cli(
      ['run', '--base-url', `${ref.url}/api`, '--key-env', 'HPS_KEY', '--report', report],
      { HPS_KEY: ref.profile.keys.test },
    );
    console.log(`wrong base path: exit ${r.code}: ${r.out.trim()}`);
    expect(r.code).toBe(3);
    expect(r.out.trim().split('\n')).toHaveLength(1);
    expect(r.out).toContain(`no /v1 route answers like the API at ${ref.url}/api: GET ${ref.url}/api/v1/payments?limit=1 with keys.test answered 404`);
  });

  it('keys.test rotated during the run: the rules left are ERROR (exit 3), none FAIL', async () => {
    const f = await runThroughProxy(
      (p) => ({ rotate: { authorization: `Bearer ${p.keys.test}`, after: 1500 } }),
      ['--area', 'create,transitions,listing,idempotency'],
      1,
      300_000,
    );
    console.log(`rotated key: exit ${f.run.exitCode}, ${f.run.verdict}, FAIL ${f.run.summary.fail} ERROR ${f.run.summary.error} PASS ${f.run.summary.pass}`);
    expect(f.run.summary.fail).toBe(0);
    expect(f.run.summary.error).toBeGreaterThan(0);
    expect(f.run.exitCode).toBe(3);
    expect(f.run.problems.some((p) => /keys\.test is refused \(401\) by the service, also on a plain read/.test(p))).toBe(true);
  }, 320_000);
});
