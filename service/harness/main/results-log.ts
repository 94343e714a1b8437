/**
 * Results are written as the run goes: `results.ndjson` beside report.json, append-only, one line
 * per finished rule test (redacted before it is written), after a first line naming the run. Even a
 * `kill -9` leaves what had finished; `report DIR` renders a partial report from it when report.json
 * is missing (reportFromResultsLog).
 */
import { closeSync, existsSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter, TestCase } from 'vitest/node';
import { selectRules } from '../../../catalogue/index.ts';
import { redactDeep } from '../../../core/redact.ts';
import { openAppendOnly } from '../../../core/safe-write.ts';
import { mustCounts } from '../../../catalogue/report/must-counts.ts';
import type { Report } from '../../../catalogue/report/model.ts';
import { collectRules, type FinishedTest } from '../../../results/verdict/collect.ts';
import { replayCommand } from '../../../results/verdict/replay.ts';
import { tallyStatuses, verdictOf } from '../../../results/verdict/summary.ts';
import { settleVerdict } from '../../../results/verdict/incomplete.ts';
import { finishedOf } from './progress.ts';

export const RESULTS_LOG = 'results.ndjson';
/** The longest results log `report DIR` reads (a run's log is far smaller). */
const MAX_LOG_BYTES = 256 * 1024 * 1024;

/** The first line: what a report needs that the tests do not carry. */
export interface ResultsHeader {
  kind: 'run';
  tool: Report['tool'];
  run_id: string;
  seed: number;
  runs: number;
  target: Report['target'];
  selection: Report['selection'];
  started_at: string;
  profile_path: string | null;
  replay_args: string[];
  /** How the user started the tool: the replay lines' first words. */
  command?: string;
}

export class ResultsLog {
  /** Every finished test so far, redacted (the emergency writer's input). */
  readonly tests: FinishedTest[] = [];
  private fd: number | undefined;
  /** Why lines stopped being written (a write error): the run goes on, its end writes report.json. */
  failed: string | undefined;

  private constructor(private readonly secrets: readonly string[]) {}

  static open(dir: string, header: ResultsHeader, secrets: readonly string[]): ResultsLog {
    const log = new ResultsLog(secrets);
    try {
      log.fd = openAppendOnly(join(dir, RESULTS_LOG));
      log.line(redactDeep(header, secrets));
    } catch (e) {
      log.fail(e);
    }
    return log;
  }

  private line(v: unknown): void {
    if (this.fd === undefined) return;
    try {
      writeSync(this.fd, `${JSON.stringify(v)}\n`);
    } catch (e) {
      this.fail(e);
    }
  }

  private fail(e: unknown): void {
    this.failed ??= (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    this.close();
  }

  add(test: FinishedTest): void {
    const t = redactDeep(test, this.secrets);
    this.tests.push(t);
    this.line({ kind: 'test', test: t });
  }

  /** A vitest reporter that logs each finished test. */
  reporter(): Partial<Reporter> {
    return { onTestCaseResult: (tc: TestCase) => this.add(finishedOf(tc)) };
  }

  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    try {
      closeSync(fd);
    } catch {
      // already gone
    }
  }
}

/** Both reporters get every event (vitest's onInit included). */
export function bothReporters(a: Partial<Reporter> | undefined, b: Partial<Reporter>): Partial<Reporter> {
  if (!a) return b;
  const out: Record<string, (...args: unknown[]) => unknown> = {};
  for (const name of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const fa = (a as Record<string, ((...x: unknown[]) => unknown) | undefined>)[name];
    const fb = (b as Record<string, ((...x: unknown[]) => unknown) | undefined>)[name];
    out[name] = (...args: unknown[]) => {
      fa?.(...args);
      return fb?.(...args);
    };
  }
  return out as Partial<Reporter>;
}

/** DIR/results.ndjson read back: its header and every complete test line (a torn last line is dropped). */
export function readResultsLog(dir: string): { header: ResultsHeader; tests: FinishedTest[] } | undefined {
  const file = join(dir, RESULTS_LOG);
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8').slice(0, MAX_LOG_BYTES);
  let header: ResultsHeader | undefined;
  const tests: FinishedTest[] = [];
  for (const raw of text.split('\n')) {
    let v: { kind?: unknown; test?: FinishedTest };
    try {
      v = JSON.parse(raw);
    } catch {
      continue;
    }
    if (v?.kind === 'run' && !header) header = v as unknown as ResultsHeader;
    else if (v?.kind === 'test' && v.test && typeof v.test.title === 'string') tests.push(v.test);
  }
  return header && typeof header.run_id === 'string' && Array.isArray(header.selection?.areas) ? { header, tests } : undefined;
}

/** A partial report from DIR/results.ndjson (report.json missing: the run was killed): the rules its tests judged, the others SKIP. */
export function reportFromResultsLog(dir: string): Report | undefined {
  const log = readResultsLog(dir);
  if (!log) return undefined;
  const { header: h, tests } = log;
  const levels = h.selection.levels;
  const selected = selectRules({ areas: h.selection.areas, rules: h.selection.rules }).filter((r) => !levels || levels.includes(r.level));
  const rules = collectRules(selected, tests);
  const ctx = { profilePath: h.profile_path, seed: h.seed, runs: h.runs, replayArgs: h.replay_args, command: h.command };
  for (const r of rules) {
    if (['fail', 'warn', 'flaky', 'error'].includes(r.status)) r.evidence.push({ kind: 'replay', command: replayCommand(ctx, [r.id]) });
  }
  const last = tests.length ? Date.parse(h.started_at) + tests.reduce((n, t) => n + t.durationMs, 0) : Date.parse(h.started_at);
  const finished = new Date(Math.max(Date.parse(h.started_at), Math.min(last, Date.now())));
  const report: Report = {
    tool: h.tool,
    target: h.target,
    run_id: h.run_id,
    seed: h.seed,
    runs: h.runs,
    started_at: h.started_at,
    finished_at: finished.toISOString(),
    duration_ms: finished.getTime() - Date.parse(h.started_at),
    selection: h.selection,
    verdict: verdictOf(rules),
    summary: tallyStatuses(rules),
    must: mustCounts(rules),
    requests: tests.reduce((n, t) => n + (t.meta?.requests ?? 0), 0),
    rules,
    partial: true,
    partial_reason: `report.json was missing: rendered from ${RESULTS_LOG} (${tests.length} finished rule tests); the run did not finish`,
  };
  settleVerdict(report);
  return redactDeep(report);
}
