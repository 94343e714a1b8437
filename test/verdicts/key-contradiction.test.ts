/**
 * A contradiction is judged, not blamed on the profile (docs/rulings.md): against the reference
 * with `revoked-key-accepted` planted and a profile that declares its revoked key, the run goes on
 * and AUTH-REVOKED-KEY is FAIL with the preflight's answer and "or the profile is wrong: …" (exit
 * 1, not conformant), even when the selection left the rule out. Before, the run stopped at the
 * preflight with exit 2 telling the author to edit the profile, and no report held the defect.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../references/service/index.ts';
import type { Report } from '../../catalogue/report/model.ts';
import { runChild } from '../support/run-child.ts';

const BIN = resolve(import.meta.dirname, '../../bin/hps-conformance.mjs');

async function cli(args: string[]): Promise<{ code: number | null; out: string }> {
  const r = await runChild(process.execPath, [BIN, ...args], { timeoutMs: 120_000 });
  return { code: r.status, out: r.stdout + r.stderr };
}

describe('a revoked key the service serves (planted revoked-key-accepted), declared as keys.test_revoked', () => {
  let ref: RunningReference;
  const dir = mkdtempSync(join(tmpdir(), 'hps-contradiction-'));
  const profile = join(dir, 'profile.json');
  beforeAll(async () => {
    ref = await startReference({ faults: ['revoked-key-accepted'] });
    writeFileSync(
      profile,
      JSON.stringify({
        base_url: ref.profile.base_url,
        keys: { test: ref.profile.keys.test, test_revoked: ref.profile.keys.test_revoked },
      }),
    );
  });
  afterAll(async () => ref?.close());

  it('is judged FAIL of AUTH-REVOKED-KEY with the evidence and "or the profile is wrong", the run going on (exit 1), the rule reported though filtered out', async () => {
    const out = join(dir, 'r');
    const r = await cli(['run', '--profile', profile, '--rule', 'AUTH-MISSING-KEY', '--seed', '1', '--report', out]);
    console.log(`revoked key served: exit ${r.code}`);
    expect(r.code, r.out).toBe(1);
    expect(r.out).toContain('preflight: keys.test_revoked contradicts the profile: AUTH-REVOKED-KEY will be judged FAIL (or the profile is wrong: keys.test_revoked is not a revoked key of this service)');
    expect(r.out).toContain('verdict: not_conformant');
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    const revoked = report.rules.find((x) => x.id === 'AUTH-REVOKED-KEY')!;
    expect(revoked.status).toBe('fail');
    expect(revoked.reason).toMatch(/^preflight: GET \/v1\/payments\?limit=1 with keys.test_revoked answered 200 .*; or the profile is wrong: keys.test_revoked is not a revoked key of this service$/);
    expect(report.rules.find((x) => x.id === 'AUTH-MISSING-KEY')!.status).toBe('pass');
    expect(readFileSync(join(out, 'report.json'), 'utf8')).not.toContain(ref.profile.keys.test_revoked!);
    expect((await cli(['verify-certificate', out])).code).toBe(0);
  }, 150_000);
});
