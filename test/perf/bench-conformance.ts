/**
 * `npm run bench:conformance`: what the quick start (`npm run conformance`) costs, and where the
 * time goes. Runs that script's command N times in a child process each (default 5), as a user
 * runs it, and prints the median and spread of the wall time, then per phase (start-up, the
 * suites, the limits phase, the report) and per area: its span on the run's clock, the time its
 * tests spent, and of that how much was waiting (sleeps for webhook deliveries and retries,
 * Retry-After and back-pressure waits: task meta `waitedMs` and the client's waits) against
 * working. Figures only: nothing here asserts a timing.
 *
 * `--against DIR`: another checkout (e.g. the commit before a change) run alternately with this
 * one, A (DIR) B (here) A B …, each round with one seed for both; medians side by side and the
 * ratio B/A per round. The machine is shared: the load average is printed before and after.
 *
 * Wall time, CPU and peak resident memory are taken from outside the child (test/perf/process-tree.ts:
 * /proc, summed over the child's process tree), so any checkout whose `npm run conformance` is
 * `node … --report DIR` can be measured; the per-phase and per-area figures come from the run's
 * results.ndjson, which an older checkout does not write (its side then has totals only).
 *
 * Options: --runs N (default 5) · --against DIR · --seed N (default a new one per round).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isRuleId, getRule } from '../../catalogue/index.ts';
import { sampleTree } from './process-tree.ts';

const HERE = resolve(import.meta.dirname, '..', '..');
/** One run may take this long before the bench gives up on it. */
const RUN_LIMIT_MS = 5 * 60_000;
/** Areas the suite session runs after the rest, alone (service/harness/main/suite-session.ts). */
const EXCLUSIVE = new Set(['limits']);

const { values } = parseArgs({ options: {
  runs: { type: 'string', default: '5' },
  against: { type: 'string' },
  seed: { type: 'string' },
} });

interface TestTiming {
  area: string;
  rule: string;
  startedAt: number;
  durationMs: number;
  waitedMs: number;
}

interface RunTiming {
  wallMs: number;
  /** CPU time of the child's process tree (user + system, all threads), read from /proc until it exits (Linux; 0 elsewhere). */
  cpuMs: number;
  /** Peak resident memory of the child's process tree, kB (test/perf/process-tree.ts; 0 elsewhere than Linux). */
  peakRssKb: number;
  exit: number | null;
  verdict: string;
  problems: string[];
  /** Epoch ms: the child spawned, the run began (report started_at), the report's verdict was made, the child exited. */
  spawnAt: number;
  startedAt: number;
  finishedAt: number;
  exitAt: number;
  tests: TestTiming[];
}

function wholeNumber(name: string, v: string | undefined, fallback: number): number {
  const n = v === undefined ? fallback : Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 1_000_000_000) {
    console.error(`bench:conformance: --${name} takes a whole number`);
    process.exit(2);
  }
  return n;
}

/** `npm run conformance`'s command in checkout `dir`, its report sent to `reportDir`. */
function conformanceCommand(dir: string, reportDir: string): string[] {
  const script: unknown = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts?.conformance;
  const words = typeof script === 'string' ? script.trim().split(/\s+/) : [];
  const at = words.indexOf('--report');
  if (words[0] !== 'node' || at < 0) throw new Error(`${dir}: the conformance script is not "node … --report DIR" (${String(script)})`);
  words[at + 1] = reportDir;
  return words.slice(1);
}

/**
 * The tests of a run's results log, with their area and timing; none when the checkout writes no
 * results.ndjson (older ones), and an older checkout's tests without a start are left out.
 */
function testsOf(resultsLog: string | undefined): TestTiming[] {
  const out: TestTiming[] = [];
  for (const line of (resultsLog ?? '').split('\n')) {
    if (!line.startsWith('{"kind":"test"')) continue;
    const t = JSON.parse(line).test;
    const rule = t.meta?.rule;
    if (typeof t.meta?.startedAt !== 'number' || !isRuleId(rule)) continue;
    const c = t.meta.client ?? {};
    const clientWaits = (c.throttleWaitMs ?? 0) + (c.paceWaitMs ?? 0) + (c.outageWaitMs ?? 0);
    out.push({
      area: getRule(rule).area,
      rule,
      startedAt: t.meta.startedAt,
      durationMs: t.durationMs,
      waitedMs: Math.min(t.durationMs, (t.meta.waitedMs ?? 0) + clientWaits),
    });
  }
  return out;
}

async function runOnce(dir: string, seed: number): Promise<RunTiming> {
  const reportDir = mkdtempSync(join(tmpdir(), 'hps-bench-conformance-'));
  try {
    const args = [...conformanceCommand(dir, reportDir), '--seed', String(seed)];
    const spawnAt = Date.now();
    const child = spawn(process.execPath, args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    const sampler = sampleTree(child.pid!);
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
    const kill = setTimeout(() => child.kill('SIGKILL'), RUN_LIMIT_MS);
    const exit = await new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    clearTimeout(kill);
    const { cpuMs, peakRssKb } = sampler.stop();
    const exitAt = Date.now();
    const outside = { wallMs: exitAt - spawnAt, cpuMs, peakRssKb, exit, spawnAt, exitAt };
    let report: any;
    try {
      report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8'));
    } catch {
      const verdict = `no report (${stderr.trim().split('\n').pop() ?? ''})`;
      return { ...outside, verdict, problems: [], startedAt: spawnAt, finishedAt: exitAt, tests: [] };
    }
    const problems = (report.rules as { id: string; status: string }[]).filter((r) => [
      'fail',
      'warn',
      'flaky',
      'error',
    ].includes(r.status)).map((r) => `${r.status.toUpperCase()} ${r.id}`);
    const log = join(reportDir, 'results.ndjson');
    const tests = testsOf(existsSync(log) ? readFileSync(log, 'utf8') : undefined);
    const at = (iso: unknown, fallback: number) =>
      (typeof iso === 'string' && Number.isFinite(Date.parse(iso)) ? Date.parse(iso) : fallback);
    const startedAt = at(report.started_at, spawnAt);
    return { ...outside, verdict: String(report.verdict), problems, startedAt, finishedAt: at(report.finished_at, exitAt), tests };
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
}

/** The middle value; with an even count, the mean of the two middle ones. */
function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
const mb = (kb: number) => (kb > 0 ? `${(kb / 1024).toFixed(0)} MB` : '–');
const sec = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : '–');
const spread = (xs: readonly number[]) => `median ${sec(median(xs))} · spread ${sec(Math.min(...xs))} – ${sec(Math.max(...xs))} (${xs.map((x) => (x / 1000).toFixed(1)).join(', ')})`;
/** Peak memory of the runs: median, spread, each run's (MB, summed over the process tree). */
const memSpread = (rs: readonly RunTiming[]) => {
  const kb = rs.map((r) => r.peakRssKb);
  const each = kb.map((k) => (k / 1024).toFixed(0)).join(', ');
  return `median ${mb(median(kb))} · spread ${mb(Math.min(...kb))} – ${mb(Math.max(...kb))} (${each} MB; the process tree, test/perf/process-tree.ts)`;
};
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');

/** The phases of one run, ms on its clock: start-up, the suites before the exclusive phase, that phase, the report. */
function phasesOf(r: RunTiming): Record<string, number> {
  const end = (ts: TestTiming[]) => Math.max(...ts.map((t) => t.startedAt + t.durationMs));
  const start = (ts: TestTiming[]) => Math.min(...ts.map((t) => t.startedAt));
  const shared = r.tests.filter((t) => !EXCLUSIVE.has(t.area));
  const alone = r.tests.filter((t) => EXCLUSIVE.has(t.area));
  const lastEnd = r.tests.length ? end(r.tests) : NaN;
  return {
    'process start → run begins': r.startedAt - r.spawnAt,
    'run begins → first test (target, preflight, vitest workers)': start(r.tests) - r.startedAt,
    'the suites, side by side': end(shared) - start(shared),
    'gap before the exclusive phase': alone.length ? start(alone) - end(shared) : NaN,
    'the exclusive phase (limits)': alone.length ? end(alone) - start(alone) : NaN,
    'last test → verdict': r.finishedAt - lastEnd,
    'report files, shut-down, exit': r.exitAt - r.finishedAt,
  };
}

interface AreaFigures {
  ends: number;
  spanMs: number;
  testMs: number;
  waitMs: number;
  longest: string;
}

/** Per area: when it ended on the run's clock, its span, its tests' time and waiting, its longest test. */
function areasOf(r: RunTiming): Map<string, AreaFigures> {
  const out = new Map<string, AreaFigures>();
  for (const area of new Set(r.tests.map((t) => t.area))) {
    const ts = r.tests.filter((t) => t.area === area);
    const first = Math.min(...ts.map((t) => t.startedAt));
    const last = Math.max(...ts.map((t) => t.startedAt + t.durationMs));
    const top = [...ts].sort((a, b) => b.durationMs - a.durationMs)[0]!;
    out.set(area, {
      ends: last - r.spawnAt,
      spanMs: last - first,
      testMs: ts.reduce((n, t) => n + t.durationMs, 0),
      waitMs: ts.reduce((n, t) => n + t.waitedMs, 0),
      longest: `${top.rule} ${sec(top.durationMs)} (${sec(top.waitedMs)} waiting)`,
    });
  }
  return out;
}

function printBreakdown(label: string, runs: readonly RunTiming[]): void {
  const timed = runs.filter((r) => r.tests.length > 0);
  const why = 'a checkout that writes no results.ndjson, or without service/harness/worker/wait-clock.ts';
  if (timed.length === 0) return console.log(`${label}: no per-test timing (${why}): wall time, CPU and memory only`);
  console.log(`${label}: phases (median of ${timed.length})`);
  const phases = timed.map(phasesOf);
  for (const name of Object.keys(phases[0]!)) console.log(`  ${name.padEnd(62)} ${sec(median(phases.map((p) => p[name]!))).padStart(8)}`);
  console.log(`${label}: per area (median of ${timed.length}; test time sums tests run side by side, so it exceeds the span)`);
  console.log(`  ${'area'.padEnd(12)} ${'ends at'.padStart(8)} ${'span'.padStart(8)} ${'tests'.padStart(8)} ${'waiting'.padStart(8)} ${'working'.padStart(8)}  longest test (last run)`);
  const per = timed.map(areasOf);
  const areas = [...per[per.length - 1]!.keys()].sort((
    a,
    b,
  ) => median(per.map((p) => p.get(b)?.ends ?? NaN)) - median(per.map((p) => p.get(a)?.ends ?? NaN)));
  for (const area of areas) {
    const m = (f: (a: AreaFigures) => number) => median(per.flatMap((p) => (p.get(area) ? [f(p.get(area)!)] : [])));
    const w = m((a) => a.waitMs);
    const t = m((a) => a.testMs);
    console.log(`  ${area.padEnd(12)} ${sec(m((a) => a.ends)).padStart(8)} ${sec(m((a) => a.spanMs)).padStart(8)} ${sec(t).padStart(8)} ${sec(w).padStart(8)} ${sec(t - w).padStart(8)}  ${per[per.length - 1]!.get(area)?.longest ?? ''}`);
  }
}

function lineOf(side: string, round: number, seed: number, r: RunTiming): string {
  const bad = r.exit !== 0 || r.verdict !== 'conformant' || r.problems.length > 0;
  const trouble = bad ? ` · exit ${r.exit} ${r.problems.join(', ')}` : '';
  return `  ${side} round ${round} seed ${seed}: ${sec(r.wallMs).padStart(7)} · CPU ${sec(r.cpuMs)} · peak RSS ${mb(r.peakRssKb)} · ${r.verdict}${trouble} · load ${load()}`;
}

async function main(): Promise<void> {
  const n = wholeNumber('runs', values.runs, 5);
  const against = values.against ? resolve(values.against) : undefined;
  console.log(`bench:conformance · ${n} run(s) of \`npm run conformance\`${against ? ` alternately in ${against} (A) and ${HERE} (B)` : ` in ${HERE}`} · ${availableParallelism()} CPUs · load average ${load()}`);
  const a: RunTiming[] = [];
  const b: RunTiming[] = [];
  for (let i = 1; i <= n; i++) {
    const seed = values.seed !== undefined ? wholeNumber('seed', values.seed, 1) : Math.floor(Math.random() * 2 ** 31);
    if (against) {
      a.push(await runOnce(against, seed));
      console.log(lineOf('A', i, seed, a[a.length - 1]!));
    }
    b.push(await runOnce(HERE, seed));
    console.log(lineOf(against ? 'B' : ' ', i, seed, b[b.length - 1]!));
  }
  if (against) printBreakdown('A', a);
  printBreakdown(against ? 'B' : 'this checkout', b);
  if (against) {
    console.log(`A wall time: ${spread(a.map((r) => r.wallMs))} · CPU median ${sec(median(a.map((r) => r.cpuMs)))}`);
    console.log(`A peak RSS: ${memSpread(a)}`);
    console.log(`B/A per round: ${b.map((
      r,
      i,
    ) => (r.wallMs / a[i]!.wallMs).toFixed(2)).join(', ')} (median ×${median(b.map((r, i) => r.wallMs / a[i]!.wallMs)).toFixed(2)})`);
    const rss = b.map((r, i) => r.peakRssKb / a[i]!.peakRssKb);
    console.log(`B/A peak RSS per round: ${rss.map((x) => x.toFixed(2)).join(', ')} (median ×${median(rss).toFixed(2)})`);
  }
  console.log(`${against ? 'B ' : ''}wall time: ${spread(b.map((r) => r.wallMs))} · CPU median ${sec(median(b.map((r) => r.cpuMs)))} · load average now ${load()}`);
  console.log(`${against ? 'B ' : ''}peak RSS: ${memSpread(b)}`);
}

await main();
