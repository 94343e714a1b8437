/**
 * The mutation score: the suite run against every planted fault of the
 * reference server, each run scoped to the rules the fault declares (a control:
 * to the areas its probes meet). A fault is caught when at least one of its
 * declared rules fails (or warns, for a SHOULD rule); the clean server must
 * raise no FAIL, WARN, ERROR or FLAKY. Runs go through one vitest session per
 * job, in this process (service/mutation/runners.ts), or a child process each.
 */
import { getRule, isRuleId } from '../../catalogue/index.ts';
import { FAULT_NAMES, FAULTS, faultOf, isFaultName, type FaultName } from './faults.ts';
import type { FaultResult, MutationSummary, SeedOutcome } from '../../catalogue/report/mutation.ts';
import type { Report } from '../../catalogue/report/model.ts';
import { HarnessError } from '../../core/errors.ts';
import { inertLine } from '../../core/inert.ts';
import { redactText } from '../../core/redact.ts';
import { openRunner, withRunners, type Isolation, type SuiteRunner } from './runners.ts';

export type { FaultResult, MutationSummary } from '../../catalogue/report/mutation.ts';

export interface MutationOptions {
  faults?: string[];
  seed: number;
  /** How many seeds each fault runs with (seed, seed+1, …); default 1. */
  seedCount?: number;
  runs: number;
  /** Runs side by side: each job has its own vitest session (or child processes, one at a time). Default 4 in a session, 2 with processes. */
  jobs?: number;
  /** `session` (default): one vitest session per job in this process; `process`: a child process per run. */
  isolation?: Isolation;
  /**
   * In a session, a fault found only by delivery timing (TIMED_RULES) still runs in a child process of its own
   * (default true): false keeps it in the session, where `npm run mutation:busy` stalls it on purpose.
   */
  timedApart?: boolean;
  onResult?: (r: FaultResult, done: number, total: number) => void;
}

export function faultAreas(name: FaultName): string[] {
  const def = faultOf(name);
  const ids = [...def.breaks, ...(def.control?.observes ?? [])];
  return [...new Set([...ids.filter(isRuleId).map((id) => getRule(id).area), ...(def.control ? ['responses'] : [])])];
}

const ALARMS = ['fail', 'warn', 'error', 'flaky'];

async function runFaultOnce(runner: SuiteRunner, name: FaultName, seed: number, runs: number): Promise<SeedOutcome> {
  const def = faultOf(name);
  // A fault runs the rules it declares: their own tests must catch it, exactly as its replay
  // line would. A control runs whole areas (the probes that meet it and the ambient rules).
  const scope = def.control ? { areas: faultAreas(name) } : { rules: [...def.breaks] };
  const child = await runner.run({ ...scope, faults: [name], seed, runs });
  const rules = child.report?.rules ?? [];
  const failed = def.control
    ? rules.filter((r) => ALARMS.includes(r.status)).map((r) => `${r.id}:${r.status}`)
    : rules.filter((r) => r.status === 'fail' || r.status === 'warn').map((r) => r.id);
  const caughtBy = def.control ? [] : def.breaks.filter((id) => failed.includes(id));
  const caught = child.report !== null && (def.control ? failed.length === 0 : caughtBy.length > 0);
  const declared = !caught && !def.control && child.report ? def.breaks.map((id) => declaredOutcome(id, rules)) : [];
  return {
    seed, failed, caughtBy, caught, exitCode: child.exitCode, duration_ms: child.ms,
    ...(child.report ? {} : { problem: child.problem ?? 'no report' }),
    ...(declared.length ? { declared } : {}),
  };
}

/** What a declared rule did on a seed that missed its fault, in one line: its status and the first thing it said. */
function declaredOutcome(id: string, rules: Report['rules']): string {
  const r = rules.find((x) => x.id === id);
  if (!r) return `${id}: not in the report`;
  const said = r.reason ?? r.evidence.map((e) => ('message' in e && typeof e.message === 'string' ? e.message : '')).find((m) => m) ?? '';
  return inertLine(redactText(`${id} ${r.status}${said ? `: ${said.slice(0, 400)}` : ''}`));
}

function faultResult(name: FaultName, seeds: SeedOutcome[]): FaultResult {
  const def = faultOf(name);
  const caughtOn = seeds.filter((s) => s.caught).length;
  const problem = seeds.find((s) => s.problem)?.problem;
  return {
    fault: name,
    description: def.description,
    control: def.control !== undefined,
    areas: faultAreas(name),
    expected: [...def.breaks],
    failed: [...new Set(seeds.flatMap((s) => s.failed))],
    caughtBy: [...new Set(seeds.flatMap((s) => s.caughtBy))],
    caught: caughtOn === seeds.length,
    byChance: caughtOn > 0 && caughtOn < seeds.length,
    seeds,
    duration_ms: seeds.reduce((n, s) => n + s.duration_ms, 0),
    ...(problem ? { problem } : {}),
  };
}

/**
 * Rules whose verdict rests on the sink's clock: how late, how early, how many within a quiet
 * period, how long a connection was held. Each excuses what the suite's own stalls explain (no
 * false alarm), so in a process where four sessions' references, sinks and orchestration share one
 * event loop on a starved CI machine, the loop can stand still through most of the stretch that
 * shows the fault (seen: 4 417 ms of a retry's 5 401 ms lateness, on both ladders). A fault that
 * only such rules catch runs in a child process of its own, whose loop serves that run alone.
 */
const TIMED_RULES: ReadonlySet<string> = new Set([
  'HOOK-RETRY-PUNCTUAL', 'HOOK-RETRY-SCHEDULE', 'HOOK-MAX-ATTEMPTS',
  'HOOK-NO-RETRY-AFTER-ACK', 'HOOK-TIMEOUT-OBSERVED', 'HOOK-SIGNED-PER-ATTEMPT',
]);

/** A fault only rules timed by the sink's clock catch (a control never: it raises nothing). */
export function isTimedFault(name: FaultName): boolean {
  const def = faultOf(name);
  return !def.control && def.breaks.every((id) => TIMED_RULES.has(id));
}

/**
 * Sessions side by side in session isolation. A fault's run mostly waits (on the network, and
 * on webhook retry schedules), so more sessions than cores pay off: each is one vitest
 * instance with its worker threads, its own embedded reference and sink.
 */
const SESSION_JOBS = 4;

/** Faults whose rules wait on webhook deliveries first; otherwise the catalogue's order. */
function slowFirst(names: FaultName[]): FaultName[] {
  const slow = (n: FaultName) => (faultAreas(n).includes('webhooks') ? 0 : 1);
  return [...names].sort((a, b) => slow(a) - slow(b));
}

export async function mutationScore(o: MutationOptions): Promise<MutationSummary> {
  const asked = o.faults?.length ? [...new Set(o.faults)] : [...FAULT_NAMES];
  for (const n of asked) if (!isFaultName(n)) throw new HarnessError(
    'HPS_ERR_USAGE',
    `--fault ${n}: unknown fault (hps-conformance serve --list-faults lists them)`,
  );
  const names = asked as FaultName[];
  const seeds = Array.from({ length: o.seedCount ?? 1 }, (_, i) => o.seed + i);
  const started = performance.now();
  const isolation = o.isolation ?? 'session';
  const jobs = o.jobs ?? (isolation === 'session' ? SESSION_JOBS : 2);
  // Every (fault, seed) pair is one job; a fault's result is complete when its last seed is.
  // The slow ones (webhook retry schedules: seconds to a minute of waiting) start first, so the
  // jobs running side by side end together instead of one of them waiting out a long tail.
  const queue = slowFirst(names).flatMap((name) => seeds.map((seed) => ({ name, seed })));
  const outcomes = new Map<string, SeedOutcome[]>();
  const results: FaultResult[] = [];
  // A child process per run of a fault only timed rules catch (TIMED_RULES); stateless, nothing to close.
  const apart = await openRunner('process');
  await withRunners(queue, jobs, isolation, async (runner, job) => {
    const own = isolation === 'session' && (o.timedApart ?? true) && isTimedFault(job.name);
    const outcome = await runFaultOnce(own ? apart : runner, job.name, job.seed, o.runs);
    const list = outcomes.get(job.name) ?? outcomes.set(job.name, []).get(job.name)!;
    list.push(outcome);
    if (list.length < seeds.length) return;
    const r = faultResult(job.name, list.sort((a, b) => a.seed - b.seed));
    results.push(r);
    o.onResult?.(r, results.length, names.length);
  });
  results.sort((a, b) => a.fault.localeCompare(b.fault));
  const declared = new Set(Object.values(FAULTS).flatMap((d) => d.breaks));
  const { RULES } = await import('../../catalogue/index.ts');
  // Merchant-side rules (`side`) are proven by the receiver and client commands' own planted faults.
  const unexercised = RULES.filter((r) => r.level !== 'OBSERVE' && !('untestable' in r) && !('side' in r) && !declared.has(r.id)).map((r) => r.id);
  const caught = results.filter((r) => r.caught).length;
  return {
    seed: o.seed,
    seeds,
    runs: o.runs,
    faults: results.length,
    caught,
    byChance: results.filter((r) => r.byChance).length,
    score: results.length ? caught / results.length : 0,
    duration_ms: Math.round(performance.now() - started),
    results,
    unexercised,
  };
}

function verdictOf(r: FaultResult): string {
  if (r.control) return r.caught ? 'held' : 'ALARMED';
  return r.caught ? 'caught' : r.byChance ? 'BY CHANCE' : 'MISSED';
}

/** How the declared rules ended on the first seed that missed the fault ("HOOK-X pass: …"), if one did with a report. */
export function missedHow(r: FaultResult): string | undefined {
  const d = r.seeds.find((s) => s.declared)?.declared;
  return d ? `(${d.join('; ')})` : undefined;
}

export function formatMutationTable(m: MutationSummary): string {
  const rows = m.results.map((r) => [
    verdictOf(r),
    r.fault,
    `${r.seeds.filter((s) => s.caught).length}/${r.seeds.length}`,
    r.control ? '(control: nothing)' : r.expected.join(' '),
    r.failed.length ? r.failed.join(' ') : r.problem ? `(${r.problem})` : missedHow(r) ?? '-',
  ]);
  const head = ['result', 'fault', 'seeds', 'expected rules', 'rules that failed'];
  const widths = head.map((h, i) => Math.min(60, Math.max(h.length, ...rows.map((r) => r[i]!.length))));
  const line = (cells: string[]) => cells.map((c, i) => (i < cells.length - 1 ? c.padEnd(widths[i]!) : c)).join('  ');
  const controls = m.results.filter((r) => r.control);
  return [
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    `mutation score: ${m.caught}/${m.faults} caught on every seed (${(m.score * 100).toFixed(1)}%) · ` +
      `${m.byChance} caught by chance (counted as missed) · ` +
      `${controls.length} negative controls, ${controls.filter((r) => r.caught).length} raised nothing · ` +
      `seeds ${m.seeds.join(', ')} · ${m.runs} runs · ${(m.duration_ms / 1000).toFixed(1)} s`,
    m.unexercised.length ? `rules no fault exercises (${m.unexercised.length}): ${m.unexercised.join(', ')}` : 'every testable ' +
      'MUST/SHOULD rule is declared by at least one fault',
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
export async function falseAlarmRate(o: { seeds: number[]; runs: number; jobs?: number; isolation?: Isolation; variant?: 'reference' | 'alt'; onRun?: (seed: number, alarms: string[]) => void }): Promise<FalseAlarmSummary> {
  const started = performance.now();
  const alarmed: FalseAlarmSummary['alarmed'] = [];
  await withRunners(o.seeds, o.jobs ?? 1, o.isolation ?? 'session', async (runner, seed) => {
    const child = await runner.run({ faults: [], seed, runs: o.runs, variant: o.variant });
    const alarms = child.report
      ? child.report.rules.filter((r) => ALARMS.includes(r.status)).map((r) => `${r.id}:${r.status}`)
      : [`no report (exit ${child.exitCode}): ${child.problem ?? ''}`];
    if (alarms.length) alarmed.push({ seed, rules: alarms });
    o.onRun?.(seed, alarms);
  });
  return {
    seeds: o.seeds,
    runs: o.runs,
    alarmed,
    rate: alarmed.length / o.seeds.length,
    duration_ms: Math.round(performance.now() - started),
  };
}
