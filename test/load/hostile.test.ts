/**
 * `hps-conformance load` against a target that turns hostile once the load starts: the
 * preflight and the read pool go through to a real reference, then every read of a Payment is
 * answered at the TCP level the broken way of test/client/hostile-servers.ts (silence, a
 * trickle, a head then silence, an endless chunked body, invalid framing). The generator's own
 * HTTP/1.1 connections must end every such request within the profile's deadline or at the
 * body cap, count it by kind, reconnect and go on: the run ends on time, with exit 1 (the error
 * rate), a report, bounded memory and no stack trace; the read check, having judged nothing, is
 * SKIP, never PASS.
 */
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../references/service/index.ts';
import { answer, type HostileCase } from '../client/hostile-servers.ts';
import { runChild } from '../support/run-child.ts';
import { readLoadJson, reportDir, writeProfile } from './helpers.ts';

const BIN = new URL('../../bin/hps-conformance.mjs', import.meta.url).pathname;
const TIME = '/usr/bin/time';
// Long enough for the read pool's creates to go through while five load processes start at once on a busy
// 2-core machine (1.5 s was not: "creating the read pool: … no complete answer within the 1500 ms
// deadline" under three concurrent `npm test`s); a hostile read still ends at this deadline.
const DEADLINE_MS = 4000;
const READ = /^\/v1\/payments\/[^/?]+$/;

interface Front {
  url: string;
  close(): Promise<void>;
}

/** Passes everything through to `upstream`, except reads of one Payment, answered as `kind`. */
async function hostileFront(upstream: string, kind: HostileCase): Promise<Front> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && READ.test(req.url ?? '')) return answer(kind, req.socket, timers);
    const up = http.request(upstream + req.url, { method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const EXPECTED: Record<Exclude<HostileCase, 'huge-declared'>, 'timeout' | 'other'> = {
  silence: 'timeout',
  trickle: 'timeout',
  'headers-then-silence': 'timeout',
  'endless-chunked': 'other', // the 1 MiB body cap
  'invalid-framing': 'other', // a protocol error
};

describe('load against a target that turns hostile under load', () => {
  let reference: RunningReference;
  const fronts: Front[] = [];
  beforeAll(async () => {
    reference = await startReference({});
  });
  afterAll(async () => {
    await Promise.all(fronts.map((f) => f.close()));
    await reference?.close();
  });

  it('ends every case on time with its errors counted by kind, exit 1, a report, bounded memory', async () => {
    const kinds = Object.keys(EXPECTED) as (keyof typeof EXPECTED)[];
    const outcomes = await Promise.all(
      kinds.map(async (kind) => {
        const front = await hostileFront(reference.url, kind);
        fronts.push(front);
        const profile = writeProfile({
          ...reference.built.profileFor(front.url),
          probes: { ...reference.built.profileFor(front.url).probes, request_timeout_ms: DEADLINE_MS },
        });
        const dir = reportDir(`hostile-${kind}`);
        const args = [BIN, 'load', '--profile', profile, '--scenario', 'read', '--connections', '4', '--workers', '1', '--warmup', '0', '--duration', '2', '--report', dir];
        const timed = existsSync(TIME);
        const started = performance.now();
        const r = timed ? await runChild(TIME, ['-f', 'HPS_PEAK_KB %M', process.execPath, ...args], { timeoutMs: 120_000 }) : await runChild(process.execPath, args, { timeoutMs: 120_000 });
        const wallMs = performance.now() - started;
        const peakMb = Number(/HPS_PEAK_KB (\d+)/.exec(r.stderr)?.[1] ?? NaN) / 1024;
        let report: any;
        try {
          report = readLoadJson(dir);
        } catch (e) {
          report = { missing: (e as Error).message };
        }
        return { kind, r, wallMs, peakMb, report };
      }),
    );
    for (const o of outcomes) {
      const f = o.report.figures ?? {};
      console.log(`${o.kind.padEnd(21)} exit ${o.r.status} · ${(o.wallMs / 1000).toFixed(1)} s · peak RSS ${o.peakMb.toFixed(0)} MB · errors ${JSON.stringify(f?.errors?.by_kind ?? f?.errors)} · answered ${f?.responses}`);
    }
    for (const o of outcomes) {
      const what = `${o.kind}\n${o.r.stdout.slice(-2000)}\n${o.r.stderr.slice(-2000)}`;
      expect(o.report.missing, what).toBeUndefined();
      expect(o.r.status, what).toBe(1);
      expect(o.r.stderr, what).not.toMatch(/^\s+at /m); // no stack trace
      const kinds = o.report.figures.errors.by_kind as Record<string, number>;
      expect(kinds[EXPECTED[o.kind]], what).toBeGreaterThan(0);
      // Nothing was answered: the read check judged nothing, so it is SKIP, never PASS.
      expect(o.report.checks.find((c: { id: string }) => c.id === 'read-own-payments').status, what).toBe('skip');
      expect(o.report.thresholds.find((t: { id: string }) => t.id === 'max-error-rate').status, what).toBe('fail');
      // 2 s of load, then at most one deadline for the requests in flight, the checks after the
      // run (their own deadlines) and start-up on a busy 2-core machine.
      expect(o.wallMs, what).toBeLessThan(40_000);
      if (Number.isFinite(o.peakMb)) expect(o.peakMb, what).toBeLessThan(400);
    }
  }, 180_000);
});
