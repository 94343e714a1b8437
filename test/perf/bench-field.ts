/**
 * `npm run bench:field`: the suite against a conformant target made to look like a real staging
 * service (test/perf/field-proxy.ts), whole runs in child processes as a user runs them.
 *
 * - latency: the same target on loopback (A) and 50 ms away (B), A B A B …; prints each pair's
 *   wall times and the median ratio B/A (goal: at most 1.5) and that both verdicts agree.
 * - limits: per-key rate limits of 5, 20 and 100 per second, fixed and sliding windows, and a
 *   5-second window (Retry-After up to 5 s): verdict, FAIL/WARN/ERROR, MUST rules run, 429s waited
 *   out, and the wall time beside the floor a limit sets (busiest key's requests ÷ limit).
 *
 * Options: --only latency|limits, --pairs N (default 3), --delay MS (default 50), --seed N,
 * --areas a,b (limits at 5/s run these areas only; default auth,create,idempotency,listing).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runThroughProxy, type FieldRun } from './field-run.ts';
import type { RateLimitSpec } from './field-proxy.ts';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    pairs: { type: 'string', default: '3' },
    delay: { type: 'string', default: '50' },
    seed: { type: 'string', default: '1' },
    areas: { type: 'string', default: 'auth,create,idempotency,listing' },
  },
});
const seed = Number(values.seed);
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function line(label: string, f: FieldRun, limit?: RateLimitSpec): string {
  const r = f.run;
  const must = r.reportDir ? mustOf(r.reportDir) : '?';
  const floor = limit ? ` · floor ${s((f.proxy.busiestKey / limit.limit) * limit.windowMs)} (busiest key ${f.proxy.busiestKey} req ÷ ${limit.limit} per ${limit.windowMs / 1000} s)` : '';
  return `${label.padEnd(34)} exit ${r.exitCode} ${r.verdict.padEnd(14)} FAIL ${r.summary.fail} WARN ${r.summary.warn} ERROR ${r.summary.error} · MUST ran ${must} · 429s ${f.proxy.limited} · ${s(r.wallMs)}${floor}`;
}

function mustOf(dir: string): string {
  const report = JSON.parse(readFileSync(`${dir}/report.json`, 'utf8'));
  return `${report.must.ran}/${report.must.testable}`;
}

async function latency(): Promise<void> {
  const pairs = Number(values.pairs);
  const delay = Number(values.delay);
  console.log(`latency: loopback (A) vs ${delay} ms away (B), ${pairs} pairs, seed ${seed}`);
  const ratios: number[] = [];
  for (let i = 0; i < pairs; i++) {
    const a = await runThroughProxy({}, [], seed);
    const b = await runThroughProxy({ delayMs: delay }, [], seed);
    ratios.push(b.run.wallMs / a.run.wallMs);
    console.log(`  pair ${i + 1}: A ${s(a.run.wallMs)} ${a.run.verdict} · B ${s(b.run.wallMs)} ${b.run.verdict} · B/A ${(b.run.wallMs / a.run.wallMs).toFixed(2)}${a.run.verdict === b.run.verdict ? '' : '  VERDICTS DIFFER'}`);
  }
  const sorted = [...ratios].sort((x, y) => x - y);
  console.log(`  median B/A ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} (range ${sorted[0]!.toFixed(2)}–${sorted.at(-1)!.toFixed(2)}; goal ≤ 1.5)`);
}

async function limits(): Promise<void> {
  const matrix: Array<{ spec: RateLimitSpec; areas?: string }> = [
    { spec: { limit: 100, windowMs: 1000, kind: 'fixed' } },
    { spec: { limit: 100, windowMs: 1000, kind: 'sliding' } },
    { spec: { limit: 20, windowMs: 1000, kind: 'fixed' } },
    { spec: { limit: 20, windowMs: 1000, kind: 'sliding' } },
    { spec: { limit: 100, windowMs: 5000, kind: 'fixed' } },
    { spec: { limit: 5, windowMs: 1000, kind: 'fixed' }, areas: values.areas },
    { spec: { limit: 5, windowMs: 1000, kind: 'sliding' }, areas: values.areas },
    { spec: { limit: 25, windowMs: 5000, kind: 'sliding' }, areas: values.areas },
  ];
  console.log(`limits: per key, seed ${seed}`);
  for (const m of matrix) {
    const label = `${m.spec.limit} per ${m.spec.windowMs / 1000} s ${m.spec.kind}${m.areas ? ` (${m.areas})` : ''}`;
    const f = await runThroughProxy({ rateLimit: m.spec }, m.areas ? ['--area', m.areas] : [], seed, 1_800_000);
    console.log(`  ${line(label, f, m.spec)}`);
    for (const p of f.run.problems.slice(0, 5)) console.log(`      ${p}`);
  }
}

if (!values.only || values.only === 'latency') await latency();
if (!values.only || values.only === 'limits') await limits();
