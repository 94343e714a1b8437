/**
 * Output paths are checked before the run (exit 2 naming the path, no request sent), and load
 * against a host that is not loopback/test states the plan and needs --rate or --yes (issue 11).
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOutputDir } from '../../core/output-path.ts';
import { describeLoadPlan, guardLoadTarget, isLocalOrTestHost } from '../../core/target-guard.ts';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'hps-conformance.mjs');
const work = mkdtempSync(join(tmpdir(), 'hps-outpath-'));
let server: Server;
let hits = 0;
let profile: string;

beforeAll(async () => {
  server = createServer((_req, res) => {
    hits++;
    res.setHeader('content-type', 'application/json');
    res.end('{"data":[],"has_more":false}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  profile = join(work, 'p.json');
  writeFileSync(
    profile,
    JSON.stringify({
      base_url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
      keys: { test: 'pt_test_sk_outputpathcheck01' },
    }),
  );
  writeFileSync(join(work, 'a-file'), 'x');
});
afterAll(() => {
  server.close();
  rmSync(work, { recursive: true, force: true });
});

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((r) => child.once('exit', (code) => r({ code, stdout, stderr })));
}

describe('output paths are checked before the run', () => {
  it('checkOutputDir creates a directory and refuses one under a file', () => {
    expect(checkOutputDir(join(work, 'new', 'deep'))).toBe(join(work, 'new', 'deep'));
    expect(() => checkOutputDir(join(
      work,
      'a-file',
      'sub',
    ))).toThrow(/--report .*a-file\/sub: cannot be created or written \(ENOTDIR\); nothing was run/);
  });

  for (const cmd of ['run', 'load'] as const) {
    it(`${cmd} --report under a file: exit 2 naming the path, before any request`, async () => {
      hits = 0;
      const bad = join(work, 'a-file', 'report');
      const extra = cmd === 'run' ? ['--rule', 'AUTH-MALFORMED-KEY', '--seed', '1'] : ['--duration', '1'];
      const r = await cli([cmd, '--profile', profile, ...extra, '--report', bad]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(bad);
      expect(hits).toBe(0);
    });
  }

  // Issue 31: Node's recursive mkdir loops for ever at 100 % CPU on a path it can never make.
  it('run --report /proc/self/rep: fails once, exit 2 naming the path, no request, no loop', async () => {
    hits = 0;
    const r = await cli(['run', '--profile', profile, '--rule', 'AUTH-MALFORMED-KEY', '--seed', '1', '--report', '/proc/self/rep']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/--report \/proc\/self\/rep: cannot be created or written/);
    expect(hits).toBe(0);
  }, 60_000);
});

describe('inputs of the tool are read with a size cap (issue 31)', () => {
  it('run --profile /dev/zero: one line, exit 2, no request', async () => {
    hits = 0;
    const r = await cli(['run', '--profile', '/dev/zero', '--rule', 'AUTH-MALFORMED-KEY', '--report', join(work, 'zero')]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/profile: \/dev\/zero is larger than the 1048576-byte cap/);
    expect(hits).toBe(0);
  }, 60_000);
});

describe('load against a host that is not loopback', () => {
  it('classifies hosts', () => {
    for (const h of [
      '127.0.0.1',
      '127.3.4.5',
      '[::1]',
      'localhost',
      'api.localhost',
      'payments.test',
      '192.0.2.10',
      '198.51.100.7',
      '203.0.113.9',
      '[2001:db8::1]',
    ]) expect(isLocalOrTestHost(h), h).toBe(true);
    for (const h of [
      '10.0.0.5',
      '192.168.1.10',
      '0.0.0.0',
      'staging.example.com',
      '8.8.8.8',
      '[2001:4860::8888]',
      'localhost.evil.com',
    ]) expect(isLocalOrTestHost(h), h).toBe(false);
  });

  it('states target and rate, and needs --rate or --yes for a remote host', () => {
    const said: string[] = [];
    const plan = { baseUrl: 'https://user:pw@staging.example.com/api', durationS: 10, connections: 10, yes: false };
    expect(() => guardLoadTarget(
      plan,
      (l) => said.push(l),
    )).toThrow(/staging\.example\.com is not a loopback or test address: give --rate R .* or --yes/);
    expect(said).toEqual(['load: target https://staging.example.com/api · rate unbounded (as fast as 10 connections go) · 10 s · 10 connections']);
    expect(() => guardLoadTarget({ ...plan, rate: 50 }, () => {})).not.toThrow();
    expect(() => guardLoadTarget({ ...plan, yes: true }, () => {})).not.toThrow();
    expect(() => guardLoadTarget({ ...plan, baseUrl: 'http://127.0.0.1:4010' }, () => {})).not.toThrow();
    expect(describeLoadPlan({ ...plan, rate: 50 })).toContain('rate 50 req/s');
  });

  it('the CLI refuses an unbounded load on a remote host in one line (exit 2), having stated the plan; nothing is sent', async () => {
    const remote = join(work, 'remote.json');
    writeFileSync(remote, JSON.stringify({ base_url: 'https://staging.example.com', keys: { test: 'pt_test_sk_outputpathcheck01' } }));
    const r = await cli(['load', '--profile', remote, '--duration', '1', '--report', join(work, 'load-out')]);
    expect(r.code).toBe(2);
    expect(r.stdout.trim()).toMatch(/^load: target https:\/\/staging\.example\.com · rate unbounded/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^hps-conformance: load: staging\.example\.com is not a loopback or test address/);
  });
});
