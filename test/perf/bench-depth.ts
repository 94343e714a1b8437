/**
 * `npm run bench:depth`: what `--runs` buys. The same areas (default auth, create, idempotency,
 * listing) against the embedded reference at --runs 100, 300 and 1000, each a whole
 * `hps-conformance run` in a child process, as a user runs it. Per row: the requests the run
 * sent (report.json), the cases its properties ran (the sum of tests[].cases), the wall time
 * and the child's peak resident memory (VmHWM of /proc/<pid>/status, read until it exits: Linux).
 *
 * Requests must grow with the runs (the cases are a share of --runs, service/harness/worker/depth.ts); memory
 * must stay about flat (a run keeps evidence for failures, not every exchange).
 *
 * Options: --runs 100,300,1000 · --areas a,b · --seed N (default 1).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'hps-conformance.mjs');
/** One run may take this long before the bench gives up on it (a run at --runs 1000 takes minutes). */
const RUN_LIMIT_MS = 30 * 60_000;

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '100,300,1000' },
    areas: { type: 'string', default: 'auth,create,idempotency,listing' },
    seed: { type: 'string', default: '1' },
  },
});

interface DepthRow {
  readonly runs: number;
  readonly exit: number | null;
  readonly verdict: string;
  readonly requests: number;
  readonly cases: number;
  readonly wallMs: number;
  readonly peakRssKb: number;
  /** Rules that failed or erred, with their reason (a deeper run may find what a shallow one missed). */
  readonly problems: readonly string[];
}

/** The peak resident set of a live process so far, in kB (0 when /proc cannot tell). */
function peakRssKb(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

async function runAt(runs: number): Promise<DepthRow> {
  const dir = mkdtempSync(join(tmpdir(), 'hps-bench-depth-'));
  const args = [BIN, 'run', '--area', values.areas!, '--runs', String(runs), '--seed', values.seed!, '--no-progress', '--report', dir];
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  let peak = 0;
  const poll = setInterval(() => (peak = Math.max(peak, peakRssKb(child.pid!))), 100);
  const kill = setTimeout(() => child.kill('SIGKILL'), RUN_LIMIT_MS);
  const exit = await new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  clearInterval(poll);
  clearTimeout(kill);
  const wallMs = performance.now() - started;
  try {
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
      verdict: string;
      requests: number;
      rules: Array<{ id: string; status: string; reason?: string; tests: Array<{ cases?: number; error?: string }> }>;
    };
    const cases = report.rules.reduce((n, r) => n + r.tests.reduce((m, t) => m + (t.cases ?? 0), 0), 0);
    const problems = report.rules
      .filter((r) => r.status === 'fail' || r.status === 'error' || r.status === 'flaky')
      .map((r) => `${r.id} ${r.status.toUpperCase()}: ${(r.reason ?? r.tests.find((t) => t.error)?.error ?? '').slice(0, 200)}`);
    return { runs, exit, verdict: report.verdict, requests: report.requests, cases, wallMs, peakRssKb: peak, problems };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const rows: DepthRow[] = [];
console.log(`bench:depth · areas ${values.areas} · seed ${values.seed} · each run a child process`);
for (const runs of values.runs!.split(',').map(Number)) {
  const r = await runAt(runs);
  rows.push(r);
  console.log(`--runs ${String(r.runs).padEnd(5)} exit ${r.exit} ${r.verdict.padEnd(6)} requests ${String(r.requests).padStart(6)} · cases ${String(r.cases).padStart(6)} · ${(r.wallMs / 1000).toFixed(1).padStart(6)} s · peak RSS ${(r.peakRssKb / 1024).toFixed(0)} MB`);
  for (const p of r.problems) console.log(`    ${p}`);
}
const [first, last] = [rows[0]!, rows.at(-1)!];
console.log(`\nrequests ×${(last.requests / first.requests).toFixed(2)}, cases ×${(last.cases / first.cases).toFixed(2)}, time ×${(last.wallMs / first.wallMs).toFixed(2)}, peak RSS ×${(last.peakRssKb / first.peakRssKb).toFixed(2)} from --runs ${first.runs} to ${last.runs}`);
