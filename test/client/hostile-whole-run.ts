/**
 * The whole suite (no --area) against one target of the hostile catalogue (issue 44), through the
 * real CLI under /usr/bin/time (peak RSS), interrupted (SIGINT: a partial report) past a deadline.
 *
 * Standalone, the figures for the catalogue: `npx tsx test/client/hostile-whole-run.ts [MODE…]`
 * (no MODE: every target, PARALLEL at a time), one line per target.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOSTILE_TARGETS, startRotatingHostile, type HostileMode, type RotatingKind } from './rotating-hostile.ts';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'hps-conformance.mjs');
export const TIME = '/usr/bin/time';
export const HOSTILE_KEY = 'pt_test_sk_Zq8Vx3Lm9Rt2Wp7Kd4Hs6Ny1';

export interface WholeRunOutcome {
  mode: HostileMode;
  exit: number | null;
  wallS: number;
  peakMb: number;
  /** The run's own directory: report/, tmp/, step-summary.md. */
  dir: string;
  report: string;
  reportWritten: boolean;
  verdict?: string;
  interrupted: boolean;
  stdout: string;
  stderr: string;
  served: Record<RotatingKind, number>;
}

/** Runs the whole suite against a fresh target in `mode`, under `work`; SIGINT after `deadlineS`. */
export async function wholeRunAgainst(mode: HostileMode, work: string, deadlineS = 600): Promise<WholeRunOutcome> {
  const target = await startRotatingHostile(HOSTILE_KEY, mode);
  const dir = join(work, mode);
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp, { recursive: true });
  const report = join(dir, 'report');
  const started = performance.now();
  try {
    const child = spawn(TIME, [
      '-f', 'HPS_PEAK_KB %M', process.execPath, BIN, 'run', '--base-url', target.url, '--key-env', 'HPS_HOSTILE_KEY',
      '--seed', '1', '--report', report, '--no-progress',
    ], {
      env: { ...process.env, HPS_HOSTILE_KEY: HOSTILE_KEY, TMPDIR: tmp, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(dir, 'sum.md') },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    let interrupted = false;
    // To the process group: /usr/bin/time ignores SIGINT, the run takes it and writes its partial report.
    const timer = setTimeout(() => (interrupted = true, process.kill(-child.pid!, 'SIGINT')), deadlineS * 1000);
    const exit = await new Promise<number | null>((r) => child.once('exit', r));
    clearTimeout(timer);
    const wallS = (performance.now() - started) / 1000;
    const peakMb = Number(/HPS_PEAK_KB (\d+)/.exec(stderr)?.[1] ?? NaN) / 1024;
    const reportJson = join(report, 'report.json');
    const verdict = existsSync(reportJson) ? (JSON.parse(readFileSync(reportJson, 'utf8')) as { verdict: string }).verdict : undefined;
    return {
      mode, exit, wallS, peakMb, dir, report, reportWritten: existsSync(reportJson), verdict, interrupted, stdout, stderr,
      served: { ...target.served },
    };
  } finally {
    await target.close();
  }
}

export function outcomeLine(o: WholeRunOutcome): string {
  const served = Object.entries(o.served).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ');
  return `${o.mode.padEnd(12)} exit ${o.exit}${o.interrupted ? ' (interrupted)' : ''} · ${o.wallS.toFixed(1)} s · peak RSS ` +
    `${o.peakMb.toFixed(0)} MB · report ${o.reportWritten ? `written, ${o.verdict}` : 'not written'} · served ${served || 'nothing'}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const modes = (process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(HOSTILE_TARGETS)) as HostileMode[];
  const parallel = Number(process.env.PARALLEL ?? 3);
  const work = mkdtempSync(join(tmpdir(), 'hps-whole-'));
  console.log(`work: ${work}`);
  const queue = [...modes];
  await Promise.all(Array.from({ length: parallel }, async () => {
    for (let m = queue.shift(); m; m = queue.shift()) {
      const o = await wholeRunAgainst(m, work, Number(process.env.DEADLINE_S ?? 600));
      console.log(outcomeLine(o));
      if (!o.reportWritten || o.exit !== 1) console.log(`  ${m} stderr: ${o.stderr.slice(-600).replace(/\n/g, '\n  ')}`);
    }
  }));
}
