/**
 * certificate.json: written by every run, a certification only when unfiltered
 * with the default runs; `verify-certificate` recomputes the hashes (0 ok, 1
 * mismatch, 2 usage) and the profile hash ignores secret values.
 */
import { execFile } from 'node:child_process';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildCertificate,
  canonicalJson,
  certificationLine,
  notCertificationReason,
  profileFileHash,
  profileHash,
} from '../results/verdict/certificate.ts';
import { verifyCertificate } from '../results/verdict/verify.ts';
import { fingerprint, signCertificate } from '../results/verdict/signing.ts';
import type { Profile } from '../core/profile.ts';
import { startReference } from '../references/service/index.ts';
import type { Report } from '../catalogue/report/model.ts';
import { runMain } from './load/helpers.ts';

const BIN = join(import.meta.dirname, '..', 'bin', 'hps-conformance.mjs');
const dir = mkdtempSync(join(tmpdir(), 'hps-cert-'));

function cliAsync(args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  return new Promise((res) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, NO_COLOR: '1', CI: 'true', ...env }, timeout: 120_000 },
      (e, out, err) => res({ code: e ? ((e as { code?: number }).code ?? 1) : 0, out, err }),
    );
  });
}
/**
 * `verify-certificate` in this process (cli/main.ts's `main`, as the bin calls it; test/load/helpers.ts):
 * fifteen children of it cost ~1.2 s of CPU each, nearly all node's and tsx's start-up. The runs that
 * write the certificates stay child processes (cliAsync).
 */
const cli = (args: string[]) => runMain(args);

const profile: Profile = {
  base_url: 'http://127.0.0.1:4010/',
  keys: { test: 'pt_test_sk_aaaa1111', live: 'pt_live_sk_bbbb2222' },
  webhooks: { listen: '127.0.0.1:4020', endpoints: [{ path: '/hooks/a', livemode: false, events: '*', secret: 'whsec_cccc3333' }] },
  control: { url: 'http://127.0.0.1:4010/_control', token: 'tok_dddd4444' },
};

function report(over: Partial<Report> = {}): Report {
  return {
    tool: {
      name: 'hps-conformance',
      version: '9.9.9',
    }, target: { base_url: 'http://127.0.0.1:4010', embedded_reference: false }, run_id: 'r', seed: 7, runs: 100,
    started_at: '', finished_at: '', duration_ms: 0, selection: { areas: [], rules: [] }, verdict: 'conformant',
    summary: { pass: 3, fail: 0, warn: 0, info: 1, skip: 1, error: 0, flaky: 0 },
    must: { total: 4, testable: 3, untestable: 1, ran: 3, passed: 3, failed: 0, skipped: 0 }, requests: 10, rules: [], ...over,
  };
}

describe('certificate (unit)', () => {
  it('is a certification only for an unfiltered, unstopped run with the default runs', () => {
    expect(notCertificationReason(report())).toBeUndefined();
    expect(notCertificationReason(report({ runs: 99 }))).toBe('--runs 99 is fewer than the default 100');
    expect(notCertificationReason(report({ selection: { areas: ['auth'], rules: [] } }))).toMatch(/filtered run/);
    expect(notCertificationReason(report({ selection: { areas: [], rules: ['AUTH-MISSING-KEY'] } }))).toMatch(/filtered run/);
    expect(notCertificationReason(report({ selection: { areas: [], rules: [], levels: ['MUST'] } }))).toMatch(/level-filtered/);
    expect(notCertificationReason(report({ selection: { areas: [], rules: [], levels: ['MUST', 'SHOULD', 'OBSERVE'] } }))).toBeUndefined();
    expect(notCertificationReason(report({ stopped: 'stopped after 1 FAIL rule(s) (--max-failures 1)' }))).toMatch(/max-failures/);
  });

  it('carries every field of the agreed shape', () => {
    const json = JSON.stringify(report());
    const c = buildCertificate(report(), json, profileHash(profile));
    expect(Object.keys(c).sort()).toEqual(['base_url', 'catalogue_sha256', 'certification', 'certified_classes', 'classes', 'counts', 'description_document_version', 'format', 'issued_at', 'must', 'must_coverage', 'not_certification_reason', 'run_ended_at', 'run_started_at', 'profile_sha256', 'report_sha256', 'runs', 'selection', 'side', 'seed', 'signature', 'spec_sha256', 'tool', 'verdict'].sort());
    // No rule ran in this made-up report: no class is conformant, so nothing is certified.
    expect(c).toMatchObject({
      tool: { version: '9.9.9' },
      description_document_version: '1.0.0',
      seed: 7,
      base_url: 'http://127.0.0.1:4010',
      verdict: 'conformant',
      certification: false,
      certified_classes: [],
      signature: null,
    });
    expect(c.not_certification_reason).toMatch(/no class is conformant/);
    expect(c.report_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyCertificate(c, json.replace('"seed":7', '"seed":8'))[0]).toMatch(/report_sha256 .* does not match/);
  });

  it("the line `run` prints after signing names the signer's fingerprint, the way to verify against it", () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const made = { ...buildCertificate(report(), '{}', null), certification: true, certified_classes: ['core'], classes: [] };
    const line = certificationLine(signCertificate(made, privateKey), 'out');
    expect(line).toContain(`verify it with: hps-conformance verify-certificate out --fingerprint SHA256:${fingerprint(publicKey)}`);
    expect(certificationLine(made, 'out')).toContain('unsigned: hps-conformance verify-certificate out checks its claims only');
  });

  it('hashes the profile without its secrets: same shape, other secret values, same hash; other fields change it', () => {
    const text = JSON.stringify(profile);
    expect(canonicalJson(profile)).not.toBe(text); // keys sorted
    const h = profileHash(profile);
    expect(JSON.stringify(buildCertificate(report(), '{}', profileHash(profile)))).not.toMatch(/aaaa1111|bbbb2222|cccc3333|dddd4444/);
    const otherSecrets = text.replace(
      'pt_test_sk_aaaa1111',
      '${HPS_CERT_UNSET_VAR}',
    ).replace('whsec_cccc3333', 'whsec_zzzz').replace('tok_dddd4444', 'other');
    expect(profileFileHash(otherSecrets, {})).toBe(h);
    expect(profileFileHash(text.replace('4020', '4021'), {})).not.toBe(h);
    expect(profileFileHash(text.replace('"live"', '"other_test"').replace('pt_live_sk_bbbb2222', 'pt_test_sk_bbbb2222'), {})).not.toBe(h);
  });
});

describe('certificate.json and verify-certificate (CLI)', () => {
  let ref: Awaited<ReturnType<typeof startReference>>;
  beforeAll(async () => {
    ref = await startReference({ port: 0, webhookBaseUrl: 'http://127.0.0.1:9' });
  });
  afterAll(async () => ref?.close());

  it('a filtered run writes a certificate that says it is not a certification, and it verifies; tampering is caught', async () => {
    const pfile = join(dir, 'profile.json');
    writeFileSync(pfile, JSON.stringify(ref.profile));
    const out = join(dir, 'run');
    const r = await cliAsync([
      'run',
      '--profile',
      pfile,
      '--rule',
      'AUTH-MISSING-KEY',
      '--seed',
      '3',
      '--runs',
      '10',
      '--report',
      out,
      '--no-progress',
    ]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('NOT A CERTIFICATION: filtered run (--area/--rule); --runs 10 is fewer than the default 100 (certificate.json says so, unsigned)');
    const cert = JSON.parse(readFileSync(join(out, 'certificate.json'), 'utf8'));
    expect(cert).toMatchObject({ certification: false, seed: 3, base_url: ref.url, verdict: 'conformant' });
    expect(cert.not_certification_reason).toMatch(/filtered run/);
    expect(readFileSync(join(out, 'certificate.json'), 'utf8')).not.toContain(ref.profile.keys.test);

    const ok = await cli(['verify-certificate', out, '--profile', pfile]);
    expect(ok.code, ok.out + ok.err).toBe(0);
    // Unsigned: the claims hold, and the line says plainly that nothing is verified.
    expect(ok.out).toMatch(/^claims consistent \(not verified\) · .*profile matches.*NOT a certification.*UNSIGNED: not verified/);
    expect(ok.out).not.toMatch(/VERIFIED:/);
    expect(ok.out).toMatch(/run \d{4}-\d\d-\d\dT\S+Z to \d{4}-\d\d-\d\dT\S+Z, issued \d{4}-\d\d-\d\dT\S+Z/);

    // another profile (a different base_url) does not match
    const other = join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ ...ref.profile, base_url: 'http://127.0.0.1:1' }));
    const bad = await cli(['verify-certificate', out, '--profile', other]);
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(/MISMATCH profile_sha256/);

    // a report edited after the fact does not match
    const rep = readFileSync(join(out, 'report.json'), 'utf8');
    writeFileSync(join(out, 'report.json'), rep.replace('"verdict": "conformant"', '"verdict": "not_conformant"'));
    const tampered = await cli(['verify-certificate', out]);
    expect(tampered.code).toBe(1);
    expect(tampered.out).toMatch(/MISMATCH report_sha256/);
    writeFileSync(join(out, 'report.json'), rep);
    expect((await cli(['verify-certificate', out])).code).toBe(0);
  }, 180_000);

  it('verified means signed by a signer the verifier named: a key nobody named is "signature not checked", --require-signature alone is a usage error', async () => {
    const pfile = join(dir, 'profile-signed.json');
    writeFileSync(pfile, JSON.stringify(ref.profile));
    const pem = (k: KeyObject, type: 'pkcs8' | 'spki') => k.export({ format: 'pem', type }) as string;
    const mine = generateKeyPairSync('ed25519');
    const stranger = generateKeyPairSync('ed25519');
    const [priv, pub, otherPub] = [
      'certifier.pem',
      'certifier.pub.pem',
      'stranger.pub.pem',
    ].map((f) => join(dir, f)) as [string, string, string];
    writeFileSync(priv, pem(mine.privateKey, 'pkcs8'));
    writeFileSync(pub, pem(mine.publicKey, 'spki'));
    writeFileSync(otherPub, pem(stranger.publicKey, 'spki'));
    const out = join(dir, 'signed');
    const r = await cliAsync(['run', '--profile', pfile, '--rule', 'AUTH-MISSING-KEY', '--seed', '3', '--runs', '10', '--sign-key', priv, '--report', out, '--no-progress']);
    expect(r.code, r.err).toBe(0);
    const print = `SHA256:${fingerprint(mine.publicKey)}`;
    expect(r.out).toContain(`signed (Ed25519, ${print})) · verify it with: hps-conformance verify-certificate ${out} --fingerprint ${print}`);
    const cert = JSON.parse(readFileSync(join(out, 'certificate.json'), 'utf8'));
    expect(Date.parse(cert.issued_at)).toBeGreaterThanOrEqual(Date.parse(cert.run_ended_at));
    expect(Date.parse(cert.run_started_at)).toBeLessThanOrEqual(Date.parse(cert.run_ended_at));

    const noFlags = await cli(['verify-certificate', out]);
    expect(noFlags.code, noFlags.out + noFlags.err).toBe(0);
    expect(noFlags.out).toContain(`SIGNATURE NOT CHECKED: signed by ${print}, a signer nobody named, so not verified`);
    expect(noFlags.out).not.toMatch(/VERIFIED:/);
    const alone = await cli(['verify-certificate', out, '--require-signature']);
    expect(alone.code).toBe(2);
    expect(alone.err.trim().split('\n')).toHaveLength(1);
    expect(alone.err).toMatch(/--require-signature needs the signer named/);
    const strangerKey = await cli(['verify-certificate', out, '--require-signature', '--public-key', otherPub]);
    expect(strangerKey.code).toBe(1);
    expect(strangerKey.out).toMatch(/^MISMATCH signed by SHA256:[0-9a-f]{64}, not by a signer named/);
    for (const named of [['--fingerprint', print], ['--public-key', pub], ['--public-key', otherPub, '--fingerprint', print.replace('SHA256:', '').toUpperCase()]]) {
      const v = await cli(['verify-certificate', out, '--require-signature', ...named]);
      expect(v.code, named.join(' ') + v.out + v.err).toBe(0);
      expect(v.out).toMatch(new RegExp(`^VERIFIED: .*issued .* signed by ${print}, a signer named`));
    }
    const trust = join(dir, 'trust.txt');
    writeFileSync(trust, `# certifiers we trust\n${print}\n\n`);
    expect((await cli(['verify-certificate', out, '--trust', trust])).code).toBe(0);
    writeFileSync(trust, 'not a fingerprint\n');
    const badTrust = await cli(['verify-certificate', out, '--trust', trust]);
    expect([badTrust.code, badTrust.err.trim()]).toEqual([2, `hps-conformance: --trust: ${trust} line 1 is not a fingerprint (SHA256: and 64 hex digits)`]);
    expect((await cli(['verify-certificate', out, '--fingerprint', 'SHA256:abc'])).code).toBe(2);

    // A stripped signature: unsigned says so without a signer named, and fails with one.
    const text = readFileSync(join(out, 'certificate.json'), 'utf8');
    writeFileSync(join(out, 'certificate.json'), JSON.stringify({ ...cert, signature: null }));
    expect((await cli(['verify-certificate', out])).out).toMatch(/UNSIGNED: not verified/);
    expect((await cli(['verify-certificate', out, '--fingerprint', print])).out).toMatch(/^MISMATCH the certificate is unsigned/);
    // A certificate of the format before issue times: refused with one line.
    writeFileSync(join(out, 'certificate.json'), JSON.stringify({ ...cert, format: 'hps-conformance-certificate/2' }));
    const old = await cli(['verify-certificate', out, '--fingerprint', print]);
    expect([old.code, old.out.trim().split('\n').length]).toEqual([1, 1]);
    expect(old.out).toMatch(/certificate format "hps-conformance-certificate\/2" is not hps-conformance-certificate\/3/);
    writeFileSync(join(out, 'certificate.json'), text);
  }, 180_000);

  it('exits 2 with one line for a missing DIR, a missing certificate, two DIRs', async () => {
    for (const args of [['verify-certificate'], ['verify-certificate', join(dir, 'nothing')], ['verify-certificate', dir, dir]]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }
  });
});
