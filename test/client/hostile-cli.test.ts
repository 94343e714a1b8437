/**
 * `hps-conformance run` against hostile targets (issue 11): the process never crashes, never
 * stalls past the request deadline, and ends with exit 3 and one line naming the trouble. Each
 * case runs the real CLI under /usr/bin/time (peak RSS) in parallel; figures are printed.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HOSTILE_CASES, startHostile, type HostileCase, type RunningHostile } from './hostile-servers.ts';
import { ROTATING_KINDS, type HostileMode, type RotatingKind } from './rotating-hostile.ts';
import { HOSTILE_KEY, outcomeLine, TIME, wholeRunAgainst, type WholeRunOutcome } from './hostile-whole-run.ts';
import { moreTransformsOf, readerViews, transformsOf } from '../security/transforms.ts';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'hps-conformance.mjs');
const work = mkdtempSync(join(tmpdir(), 'hps-hostile-'));
const servers: RunningHostile[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(work, { recursive: true, force: true });
});

interface Outcome { kind: HostileCase; exit: number | null; wallMs: number; peakMb: number; stderr: string; reportWritten: boolean }

async function runAgainst(kind: HostileCase): Promise<Outcome> {
  const server = await startHostile(kind);
  servers.push(server);
  const profile = join(work, `${kind}.json`);
  writeFileSync(profile, JSON.stringify({ base_url: server.url, keys: { test: 'pt_test_sk_hostileHostileHostile0001' } }));
  const report = join(work, `${kind}-report`);
  const started = performance.now();
  const child = spawn(
    TIME,
    [
      '-f',
      'HPS_PEAK_KB %M',
      process.execPath,
      BIN,
      'run',
      '--profile',
      profile,
      '--rule',
      'AUTH-MALFORMED-KEY',
      '--seed',
      '1',
      '--report',
      report,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exit = await new Promise<number | null>((r) => child.once('exit', r));
  const wallMs = performance.now() - started;
  const peakKb = Number(/HPS_PEAK_KB (\d+)/.exec(stderr)?.[1] ?? NaN);
  return {
    kind,
    exit,
    wallMs,
    peakMb: peakKb / 1024,
    stderr: stderr.replace(/HPS_PEAK_KB \d+\n?/, '').replace(/^Command exited with non-zero status \d+\n?/m, '').trim(),
    reportWritten: existsSync(report),
  };
}

describe('the CLI against hostile targets', () => {
  it.skipIf(!existsSync(TIME))('ends every case with exit 3 and one line, within the deadline, with bounded memory', async () => {
    const outcomes = await Promise.all((Object.keys(HOSTILE_CASES) as HostileCase[]).map(runAgainst));
    for (const o of outcomes) console.log(`${o.kind.padEnd(21)} exit ${o.exit} · ${(o.wallMs / 1000).toFixed(1)} s · peak RSS ${o.peakMb.toFixed(0)} MB · ${o.stderr}`);
    // Start-up on a busy machine is measured, not guessed: invalid framing ends at the first byte,
    // and it ran side by side with the others under the same load.
    const startUpMs = outcomes.find((o) => o.kind === 'invalid-framing')!.wallMs;
    for (const o of outcomes) {
      expect(o.exit, o.stderr).toBe(3);
      expect(o.stderr.split('\n'), o.stderr).toHaveLength(1);
      expect(o.stderr).toMatch(/^hps-conformance: target http:\/\/127\.0\.0\.1:\d+ (could not be reached|did not answer usably): GET \/v1\/payments\?limit=1: /);
      // The preflight's request deadline (10 s) past the start-up, plus slack for a busy 2-core machine.
      expect(o.wallMs, `start-up ${Math.round(startUpMs)} ms`).toBeLessThan(startUpMs + 10_000 + 8_000);
      expect(o.peakMb).toBeLessThan(400);
    }
  }, 120_000);
});

/**
 * The whole suite against the hostile catalogue (issues 31, 44; test/client/rotating-hostile.ts): the
 * run must end by itself within WALL_S, under PEAK_MB of resident memory, write its reports, never
 * call the target conformant, never turn a tripped bound into SKIP, and leave the key in no file and
 * no stream, in any form a reader decodes. Two targets run here side by side, each a whole run (no
 * --area): the one rotating through every kind, and the reported case (every GET a 7.5 MiB list of
 * non-Payments, every other request 404). Every other target of the catalogue (each kind on every
 * request) is measured by `npx tsx test/client/hostile-whole-run.ts` (docs/certify-a-service.md).
 */
const WALL_S = 300;
const PEAK_MB = 1024;
const IN_TEST: readonly HostileMode[] = ['rotating', 'huge-lists'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : e.isFile() ? [p] : [];
  });
}

function keyHits(where: string, text: string): string[] {
  return readerViews(text).flatMap((view) => {
    const lower = view.toLowerCase();
    return [...transformsOf(HOSTILE_KEY), ...moreTransformsOf(HOSTILE_KEY)].filter((t) => t.test(view, lower)).map((t) => `${where}: ${t.name}`);
  });
}

/**
 * The SKIPs a run may have: a profile's missing field, a rule not exercisable through the API; and '0 checks
 * made' of the rules whose subject these targets never answer, named: a create refused with a 400
 * (CREATE-REFUSAL-NO-TRACE: no create is answered 400 by either), a created Payment (the checkout_url rules:
 * every create of the reported case is a 404). Never a tripped bound.
 */
const SKIP_REASONS = /^(profile lacks|not exercisable)/;
const NOTHING_TO_CHECK: Record<string, readonly string[]> = {
  rotating: ['CREATE-REFUSAL-NO-TRACE'],
  'huge-lists': ['CREATE-REFUSAL-NO-TRACE', 'RESP-PAYMENT-CHECKOUT-URL', 'RESP-CHECKOUT-URL-HTTPS'],
};

function expectBoundedRun(o: WholeRunOutcome): void {
  expect(o.interrupted, outcomeLine(o)).toBe(false);
  expect([1, 3], o.stderr.slice(-2000)).toContain(o.exit);
  expect(o.wallS).toBeLessThan(WALL_S);
  expect(o.peakMb).toBeLessThan(PEAK_MB);
  for (const f of ['report.json', 'report.html', 'junit.xml', 'summary.md', 'results.ndjson']) expect(existsSync(join(o.report, f)), f).toBe(true);
  const r = JSON.parse(readFileSync(
    join(o.report, 'report.json'),
    'utf8',
  )) as { verdict: string; rules: Array<{ id: string; status: string; reason?: string }> };
  expect(r.verdict).not.toBe('conformant');
  const allowed = (x: { id: string; reason?: string }) =>
    SKIP_REASONS.test(x.reason ?? '') || (x.reason === '0 checks made' && NOTHING_TO_CHECK[o.mode]!.includes(x.id));
  const skipped = r.rules.filter((x) => x.status === 'skip' && !allowed(x));
  expect(skipped.map((x) => `${x.id}: ${x.reason}`)).toEqual([]);
  const hits = [
    ...keyHits('stdout', o.stdout),
    ...keyHits('stderr', o.stderr),
    ...filesUnder(o.dir).flatMap((f) => keyHits(f.slice(o.dir.length + 1), readFileSync(f, 'utf8'))),
  ];
  expect(hits).toEqual([]);
}

describe('the whole suite against the hostile catalogue', () => {
  it.skipIf(!existsSync(TIME))(`${IN_TEST.join(' and ')}: each ends within ${WALL_S} s under ${PEAK_MB} MB, reports written, not conformant, no bound turned SKIP, the key nowhere`, async () => {
    const outcomes = await Promise.all(IN_TEST.map((mode) => wholeRunAgainst(mode, work, WALL_S + 60)));
    for (const o of outcomes) console.log(`whole run against ${outcomeLine(o)}`);
    for (const o of outcomes) expectBoundedRun(o);
    const rotating = outcomes.find((o) => o.mode === 'rotating')!;
    for (const kind of Object.keys(ROTATING_KINDS) as RotatingKind[]) expect(rotating.served[kind], kind).toBeGreaterThan(0);
  }, (WALL_S + 120) * 1000);
});
