/**
 * The mutation score: the suite run against every planted fault of the
 * reference server, each run scoped to the areas of the rules the fault
 * declares, in parallel child processes. A fault is caught when at least one
 * of its declared rules fails (or warns, for a SHOULD rule); the clean server
 * must raise no FAIL, WARN, ERROR or FLAKY.
 */
import { spawn } from 'node:child_process';
import { availableParallelism, tmpdir } from 'node:os';
import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getRule, isRuleId } from '../catalogue/index.ts';
import { FAULTS } from '../reference/faults.ts';
import type { Report } from '../reports/report-types.ts';
import { HarnessError } from './errors.ts';

const BIN = join(import.meta.dirname, '..', 'bin', 'hps-conformance.mjs');

export interface FaultResult {
  fault: string;
  description: string;
  areas: string[];
  expected: string[];
  failed: string[];
  /** Declared rules that broke (fail or warn). */
  caughtBy: string[];
  caught: boolean;
  exitCode: number | null;
  duration_ms: number;
  problem?: string;
}

export interface MutationSummary {
  seed: number;
  runs: number;
  faults: number;
  caught: number;
  score: number;
  duration_ms: number;
  results: FaultResult[];
  /** Rules no fault declares (holes in the proof that the suite can fail). */
  unexercised: string[];
}

export interface MutationOptions {
  faults?: string[];
  seed: number;
  runs: number;
  jobs?: number;
  onResult?: (r: FaultResult, done: number, total: number) => void;
}

export function faultAreas(name: string): string[] {
  const def = FAULTS[name]!;
  return [...new Set(def.breaks.filter(isRuleId).map((id) => getRule(id).area))];
}

/** Runs `hps-conformance run` in a child process and reads its report.json. */
export function runChild(args: string[]): Promise<{ code: number | null; report: Report | null; stderr: string; ms: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'hps-mut-'));
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'run', ...args, '--report', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      let report: Report | null = null;
      try {
        report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
      } catch {
        report = null;
      }
      resolve({ code, report, stderr, ms: Math.round(performance.now() - started) });
    });
  });
}

export async function mutationScore(o: MutationOptions): Promise<MutationSummary> {
  const names = o.faults?.length ? o.faults : Object.keys(FAULTS);
  for (const n of names) if (!(n in FAULTS)) throw new HarnessError('HPS_ERR_USAGE', `--fault ${n}: unknown fault (see reference/faults/)`);
  const started = performance.now();
  const jobs = o.jobs ?? Math.max(2, Math.min(4, availableParallelism()));
  const results: FaultResult[] = [];
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const name = names[next++]!;
      const def = FAULTS[name]!;
      const areas = faultAreas(name);
      const args = [...areas.flatMap((a) => ['--area', a]), '--fault', name, '--seed', String(o.seed), '--runs', String(o.runs)];
      const child = await runChild(args);
      const failed = (child.report?.rules ?? []).filter((r) => r.status === 'fail' || r.status === 'warn').map((r) => r.id);
      const caughtBy = def.breaks.filter((id) => failed.includes(id));
      const r: FaultResult = {
        fault: name,
        description: def.description,
        areas,
        expected: [...def.breaks],
        failed,
        caughtBy,
        caught: caughtBy.length > 0,
        exitCode: child.code,
        duration_ms: child.ms,
        ...(child.report ? {} : { problem: child.stderr.trim().split('\n').pop() ?? 'no report' }),
      };
      results.push(r);
      o.onResult?.(r, results.length, names.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, names.length) }, worker));
  results.sort((a, b) => a.fault.localeCompare(b.fault));
  const declared = new Set(Object.values(FAULTS).flatMap((d) => d.breaks));
  const { RULES } = await import('../catalogue/index.ts');
  // Merchant-side rules (`side`) are proven by the receiver and client commands' own planted faults.
  const unexercised = RULES.filter((r) => r.level !== 'OBSERVE' && !('untestable' in r) && !('side' in r) && !declared.has(r.id)).map((r) => r.id);
  const caught = results.filter((r) => r.caught).length;
  return {
    seed: o.seed,
    runs: o.runs,
    faults: results.length,
    caught,
    score: results.length ? caught / results.length : 0,
    duration_ms: Math.round(performance.now() - started),
    results,
    unexercised,
  };
}

export function formatMutationTable(m: MutationSummary): string {
  const rows = m.results.map((r) => [
    r.caught ? 'caught' : 'MISSED',
    r.fault,
    r.expected.join(' '),
    r.failed.length ? r.failed.join(' ') : r.problem ? `(${r.problem})` : '-',
  ]);
  const head = ['result', 'fault', 'expected rules', 'rules that failed'];
  const widths = head.map((h, i) => Math.min(60, Math.max(h.length, ...rows.map((r) => r[i]!.length))));
  const line = (cells: string[]) => cells.map((c, i) => (i < cells.length - 1 ? c.padEnd(widths[i]!) : c)).join('  ');
  return [
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    `mutation score: ${m.caught}/${m.faults} faults caught (${(m.score * 100).toFixed(1)}%) · seed ${m.seed} · ${m.runs} runs · ${(m.duration_ms / 1000).toFixed(1)} s`,
    m.unexercised.length ? `rules no fault exercises (${m.unexercised.length}): ${m.unexercised.join(', ')}` : 'every testable MUST/SHOULD rule is declared by at least one fault',
  ].join('\n');
}

export interface FalseAlarmSummary {
  seeds: number[];
  runs: number;
  /** Runs (seeds) that raised any FAIL, WARN, ERROR or FLAKY against the clean server. */
  alarmed: Array<{ seed: number; rules: string[] }>;
  rate: number;
  duration_ms: number;
}

/** The whole suite against the clean reference once per seed: the false-alarm rate must be zero. */
export async function falseAlarmRate(o: { seeds: number[]; runs: number; jobs?: number; onRun?: (seed: number, alarms: string[]) => void }): Promise<FalseAlarmSummary> {
  const started = performance.now();
  const alarmed: FalseAlarmSummary['alarmed'] = [];
  const queue = [...o.seeds];
  const worker = async () => {
    for (let seed = queue.shift(); seed !== undefined; seed = queue.shift()) {
      const child = await runChild(['--seed', String(seed), '--runs', String(o.runs)]);
      const alarms = child.report
        ? child.report.rules.filter((r) => ['fail', 'warn', 'error', 'flaky'].includes(r.status)).map((r) => `${r.id}:${r.status}`)
        : [`no report (exit ${child.code}): ${child.stderr.trim().split('\n').pop() ?? ''}`];
      if (alarms.length) alarmed.push({ seed, rules: alarms });
      o.onRun?.(seed, alarms);
    }
  };
  await Promise.all(Array.from({ length: Math.min(o.jobs ?? 2, o.seeds.length) }, worker));
  return { seeds: o.seeds, runs: o.runs, alarmed, rate: alarmed.length / o.seeds.length, duration_ms: Math.round(performance.now() - started) };
}
