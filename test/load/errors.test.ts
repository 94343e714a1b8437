/**
 * `hps-conformance load` when things go wrong: bad flags (exit 2, one line, before anything
 * starts), an unreachable target (exit 3, one line, no secret), and a target that answers 500
 * to every create (the correctness checks fail: exit 1). These run `main` in this process
 * (what bin/hps-conformance.mjs calls); embedded.test.ts goes through the binary itself.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, readLoadJson, reportDir, runMain, writeProfile } from './helpers.ts';

const SECRET = 'pt_test_sk_loadsecretvalue12345';

describe('hps-conformance load: usage and target errors', () => {
  it('exits 2 with one line for a bad flag', async () => {
    const cases = [
      ['--duration', '0'],
      ['--duration', '301'],
      ['--duration', '0.5'],
      ['--connections', '257'],
      ['--connections', 'ten'],
      ['--rate', '0'],
      ['--scenario', 'checkout'],
      ['--max-error-rate', '1.5'],
      ['--max-p99-ms', 'fast'],
      ['--min-rps', 'x'],
      ['--max-requests', '5', '--connections', '10'],
      ['--bogus'],
    ];
    const results = [];
    for (const args of cases) results.push(await runMain(['load', ...args]));
    results.forEach((r, i) => {
      const what = cases[i]!.join(' ');
      expect(r.code, what).toBe(2);
      expect(r.err.trim().split('\n'), what).toHaveLength(1);
      expect(r.err, what).toMatch(/^hps-conformance: /);
      expect(r.out, what).toBe('');
    });
  });

  it('exits 3 with one line when base_url cannot be reached, naming no secret', async () => {
    const port = await freePort();
    const r = await runMain([
      'load',
      '--duration',
      '1',
      '--report',
      reportDir('unreachable'),
      '--profile',
      writeProfile({ base_url: `http://127.0.0.1:${port}`, keys: { test: SECRET } }),
    ]);
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/could not be reached/);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err + r.out).not.toContain('loadsecretvalue');
  });
});

describe('hps-conformance load: a target answering 500 to every create', () => {
  let server: http.Server;
  let baseUrl: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        if (req.method === 'GET' && req.url?.startsWith('/v1/payments')) {
          res.end(JSON.stringify({ object: 'list', data: [], has_more: false, next_cursor: null }));
        } else {
          res.statusCode = 500;
          res.end(JSON.stringify({ error: { code: 'internal_error', message: 'boom', request_id: 'req_1' } }));
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => {
      server.close(() => r());
      server.closeAllConnections();
    });
  });

  it('fails the correctness checks (exit 1), and says so without leaking the key', async () => {
    const profile = writeProfile({ base_url: baseUrl, keys: { test: SECRET } });
    const dir = reportDir('500');
    const r = await runMain(['load', '--profile', profile, '--scenario', 'create', '--duration', '1', '--connections', '2', '--max-p99-ms', '60000', '--max-error-rate', '1', '--report', dir]);
    expect(r.code).toBe(1);
    const report = readLoadJson(dir);
    const status = (id: string) => report.checks.find((c: { id: string }) => c.id === id)?.status;
    expect(status('no-5xx')).toBe('fail');
    expect(status('create-201-payment')).toBe('fail');
    // Thresholds were out of the way: the checks alone decide.
    expect(report.thresholds.every((t: { status: string }) => t.status !== 'fail')).toBe(true);
    expect(report.figures.errors.by_code['create 500 internal_error']).toBeGreaterThan(0);
    expect(report.figures.errors.by_status['500']).toBeGreaterThan(0);
    expect(r.out).toMatch(/FAIL\s+create-201-payment/);
    expect(r.out + JSON.stringify(report)).not.toContain('loadsecretvalue');
  });

  it('stops before the load when the read pool cannot be created (exit 1)', async () => {
    const profile = writeProfile({ base_url: baseUrl, keys: { test: SECRET } });
    const dir = reportDir('500-mixed');
    const r = await runMain(['load', '--profile', profile, '--duration', '1', '--report', dir]);
    expect(r.code).toBe(1);
    const report = readLoadJson(dir);
    expect(report.figures).toBeNull();
    expect(report.checks.find((c: { id: string }) => c.id === 'read-pool')).toMatchObject({ status: 'fail' });
    expect(report.checks.find((c: { id: string }) => c.id === 'read-pool').detail).toContain('500');
  });
});
