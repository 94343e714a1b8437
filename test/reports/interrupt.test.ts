/**
 * Interrupted is not lost (issue 21). `run` in a child process against the embedded reference gets
 * SIGINT or SIGTERM 3 s or 10 s after its first line (the target answered the preflight): it must
 * exit 130 / 143 within the stated bound, with every report file written and marked partial (never
 * a certification), leaving no temporary file (its TMPDIR is its own) and no child process running.
 * A `kill -9` leaves results.ndjson, from which `report DIR` renders a partial report.
 * The test prints the interrupt table.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { INTERRUPT_BOUND_MS } from '../../core/interrupt.ts';
import { runChild } from '../support/run-child.ts';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'hps-conformance.mjs');
const work = mkdtempSync(join(tmpdir(), 'hps-interrupt-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Every descendant of `pid` (from /proc), to check none is left running after it exits. */
function descendants(pid: number): number[] {
  const out: number[] = [];
  const walk = (p: number) => {
    let kids: number[] = [];
    try {
      kids = readdirSync(`/proc/${p}/task`).flatMap((t) => readFileSync(
        `/proc/${p}/task/${t}/children`,
        'utf8',
      ).trim().split(/\s+/).filter(Boolean).map(Number));
    } catch {
      return;
    }
    for (const k of kids) {
      out.push(k);
      walk(k);
    }
  };
  walk(pid);
  return out;
}

/** A process still running (a zombie has ended; it waits only for its new parent to reap it). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

interface Row { signal: string; moment: number; exit: number | null; ms: number; written: string; debris: string }

async function interrupted(signal: 'SIGINT' | 'SIGTERM' | 'SIGKILL', momentS: number, name: string): Promise<Row & { dir: string }> {
  const dir = join(work, name);
  const tmp = join(work, `${name}-tmp`);
  mkdirSync(tmp, { recursive: true });
  const child = spawn(process.execPath, [
    BIN,
    'run',
    '--area',
    'auth',
    '--area',
    'create',
    '--area',
    'webhooks',
    '--seed',
    '7',
    '--no-progress',
    '--report',
    dir,
  ], {
    env: { ...process.env, TMPDIR: tmp, CI: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', () => {});
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  while (!out.includes('hps-conformance:')) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, momentS * 1000));
  const kids = descendants(child.pid!);
  const t0 = Date.now();
  child.kill(signal);
  const exit = await exited;
  const ms = Date.now() - t0;
  await new Promise((r) => setTimeout(r, 200));
  const left = [...readdirSync(tmp).filter((f) => !f.startsWith('tsx-')), ...kids.filter(running).map((p) => `pid ${p} running`)];
  const report = existsSync(join(dir, 'report.json')) ? JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) : undefined;
  const written = report ? `${[
    'report.json',
    'report.html',
    'junit.xml',
    'summary.md',
    'certificate.json',
    'results.ndjson',
  ].filter((f) => existsSync(join(
    dir,
    f,
  ))).length} files, partial ${report.partial === true}` : existsSync(join(dir, 'results.ndjson')) ? 'results.ndjson only' : 'nothing';
  return { signal, moment: momentS, exit, ms, written, debris: left.length ? left.join(', ') : 'none', dir };
}

/** `report DIR`: the report rendered again from what the run left, asynchronously (support/run-child.ts). */
const reportDir = (dir: string) => runChild(process.execPath, [BIN, 'report', dir], { timeoutMs: 180_000 });

describe('an interrupted run keeps its results and leaves nothing behind', () => {
  it('SIGINT / SIGTERM at 3 s and 10 s: 130 / 143 within the bound, every report partial, no debris; kill -9 then report DIR', async () => {
    const rows: Row[] = [];
    // The five runs side by side (each its own report directory, TMPDIR and embedded reference): each
    // mostly waits for its moment, one after the other they were 90 s of a busy machine's run.
    const cases = [['SIGINT', 3], ['SIGTERM', 3], ['SIGINT', 10], ['SIGTERM', 10]] as const;
    const [killed, ...signalled] = await Promise.all([
      interrupted('SIGKILL', 10, 'SIGKILL-10'),
      ...cases.map(([signal, moment]) => interrupted(signal, moment, `${signal}-${moment}`)),
    ]);
    for (const r of signalled) {
      const { signal, moment } = r;
      rows.push(r);
      expect(r.exit, `${signal} at ${moment} s`).toBe(signal === 'SIGINT' ? 130 : 143);
      // The bound is 5 s; a busy machine may add to the process's own exit (generous, never tight).
      expect(r.ms).toBeLessThan(INTERRUPT_BOUND_MS + 10_000);
      expect(r.written).toBe('6 files, partial true');
      expect(r.debris).toBe('none');
      const report = JSON.parse(readFileSync(join(r.dir, 'report.json'), 'utf8'));
      expect(report.partial_reason).toMatch(new RegExp(`interrupted by ${signal}`));
      // What was not reached says so (never "no test in this selection"), and `report DIR` keeps the run's exit status.
      expect(report.interrupted?.signal).toBe(signal);
    }
    expect(killed!.written).toBe('results.ndjson only');
    const lines = readFileSync(join(killed!.dir, 'results.ndjson'), 'utf8').trim().split('\n').length;
    // `report DIR` on every run's directory, side by side too (each a CLI start-up of its own).
    const [rendered, ...again] = await Promise.all([killed!, ...signalled].map((r) => reportDir(r.dir)));
    for (const [i, r] of signalled.entries()) {
      expect(again[i]!.status, again[i]!.stderr).toBe(r.exit);
      const cert = JSON.parse(readFileSync(join(r.dir, 'certificate.json'), 'utf8'));
      expect(cert.certification).toBe(false);
      expect(cert.not_certification_reason).toMatch(/partial run/);
    }
    expect(rendered!.status, rendered!.stderr).toBe(1);
    const fromLog = JSON.parse(readFileSync(join(killed!.dir, 'report.json'), 'utf8'));
    expect(fromLog.partial).toBe(true);
    rows.push({ ...killed!, written: `${lines - 1} results logged; report DIR: partial ${fromLog.partial}, ${fromLog.summary.pass} pass` });
    console.log(['signal   moment  exit  time to exit  report written                       debris',
      ...rows.map((r) => `${r.signal.padEnd(8)} ${`${r.moment} s`.padEnd(7)} ${String(r.exit).padEnd(5)} ${`${r.ms} ms`.padEnd(13)} ${r.written.padEnd(36)} ${r.debris}`)].join('\n'));
  }, 600_000);
});
