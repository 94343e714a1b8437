/**
 * A target that answers the preflight, then stops answering (connections
 * accepted, never answered) ends the run as ERROR with exit 3, quickly: the
 * client's circuit breaker waits for it (half-open) within the outage budget,
 * then refuses further requests; fast-check does not turn the transport error
 * into a counterexample, and time-outs are not failures.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../references/service/index.ts';
import type { Report } from '../../catalogue/report/model.ts';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'hps-conformance.mjs');
let ref: RunningReference;
let front: Server;
let profilePath: string;
const dir = mkdtempSync(join(tmpdir(), 'hps-dead-'));

beforeAll(async () => {
  ref = await startReference({});
  let dead = false;
  // Answers (by forwarding) the preflight's reads (one per key of the profile), then nothing.
  front = createServer(async (req, res) => {
    dead ||= !(req.method === 'GET' && req.url === '/v1/payments?limit=1');
    if (dead) return; // accepted, never answered
    const upstream = await fetch(ref.url + req.url, { headers: { authorization: req.headers.authorization ?? '' } });
    res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(await upstream.text());
  });
  await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
  const port = (front.address() as { port: number }).port;
  const profile = {
    ...ref.profile,
    base_url: `http://127.0.0.1:${port}`,
    probes: { ...(ref.profile as any).probes, request_timeout_ms: 2_000, outage_budget_s: 10 },
  };
  delete (profile as any).webhooks;
  profilePath = join(dir, 'profile.json');
  writeFileSync(profilePath, JSON.stringify(profile));
});

afterAll(async () => {
  front?.closeAllConnections();
  front?.close();
  await ref?.close();
});

it('exits 3 with ERROR and no FAIL, in about one outage budget (10 s) past start-up, not a time-out per request', async () => {
  const started = Date.now();
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(
      process.execPath,
      [BIN, 'run', '--profile', profilePath, '--seed', '5', '--report', join(dir, 'r')],
      { stdio: 'ignore' },
    );
    const timer = setTimeout(() => child.kill('SIGKILL'), 170_000);
    child.on('close', (c) => (clearTimeout(timer), resolve(c)));
  });
  const wall = Date.now() - started;
  const report = JSON.parse(readFileSync(join(dir, 'r', 'report.json'), 'utf8')) as Report;
  console.log(`dead target: exit ${code}, ${(wall / 1000).toFixed(1)} s, ${report.summary.error} ERROR, ${report.summary.fail} FAIL, ${report.summary.pass} PASS`);
  expect(code).toBe(3);
  expect(report.summary.fail).toBe(0);
  expect(report.summary.flaky).toBe(0);
  expect(report.summary.error).toBeGreaterThan(0);
  // Without the shared outage, each worker and phase waited a budget of its own, and every request its time-out:
  // minutes. Bounded loosely: start-up (45 suite files) on a busy 2-core machine takes tens of seconds.
  expect(wall).toBeLessThan(120_000);
}, 180_000);
