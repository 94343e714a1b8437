/**
 * Progress of a run while it is in progress, as a vitest reporter: on a TTY one
 * live line (area, rules done / total, requests, failures, elapsed) repainted
 * in place; elsewhere (CI logs) one plain line per finished area. Every FAIL is
 * printed as soon as its test finishes, with its replay line. With
 * `maxFailures` the run is cancelled after that many FAIL rules (fail fast).
 */
import type { Reporter, TestCase, TestModule, TestSpecification, Vitest } from 'vitest/node';
import { getRule, isRuleId, type Rule } from '../../../catalogue/index.ts';
import type { RuleReport } from '../../../catalogue/report/model.ts';
import { ruleIdOfTitle } from '../../../catalogue/rule-title.ts';
import { collectRules, type FinishedTest } from '../../../results/verdict/collect.ts';
import type { HpsMeta } from '../../../core/evidence.ts';
import { inertLine } from '../../../core/inert.ts';
import { redactText, redactDeep } from '../../../core/redact.ts';

export interface ProgressOptions {
  selected: readonly Rule[];
  /** Where lines go (stderr by default, keeping stdout for the summary). */
  write?: (s: string) => void;
  /** Repaint one live line (a terminal) or print one line per finished area. */
  live: boolean;
  /** Stop the run after this many FAIL rules. */
  maxFailures?: number;
  /** Adds the replay line to a failed rule (the runner's addReplayLines). */
  replay: (rules: RuleReport[]) => void;
  paint?: { red: (s: string) => string; yellow: (s: string) => string; dim: (s: string) => string };
  now?: () => number;
}

export interface RunMonitor {
  reporter: Reporter;
  /** Why the run stopped early (--max-failures), if it did. */
  stopReason(): string | undefined;
  /** Milliseconds from start to the first progress line (undefined if none was printed). */
  firstLineMs(): number | undefined;
}

const AREA_OF_PATH = /[\\/]suites[\\/]([^\\/]+)[\\/]/;
const BAD = new Set(['fail', 'error', 'warn', 'flaky']);

/** Each test case's finished form, made once: the progress and the results log both take it (read only). */
const finished = new WeakMap<TestCase, FinishedTest>();

/** One finished test as the collector sees it (same shape the runner builds at the end). */
export function finishedOf(tc: TestCase): FinishedTest {
  let t = finished.get(tc);
  if (!t) finished.set(tc, (t = redactedFinished(tc)));
  return t;
}

function redactedFinished(tc: TestCase): FinishedTest {
  const r = tc.result();
  const state = r.state === 'passed' ? 'pass' : r.state === 'failed' ? 'fail' : 'skip';
  const errors = r.state === 'failed' ? r.errors.map((e) => e.message ?? String(e)) : [];
  // Redacted as it enters this process (the secrets the run registered): every channel after this sees no secret.
  return redactDeep({
    title: tc.name,
    state,
    durationMs: tc.diagnostic()?.duration ?? 0,
    errors,
    meta: (tc.meta() as { hps?: HpsMeta }).hps,
  });
}

/** The rules a finished test judged badly right away (its own rule, and ambient findings' rules). */
export function badRulesOf(t: FinishedTest): RuleReport[] {
  const ids = new Set<string>();
  const own = ruleIdOfTitle(t.title);
  if (own) ids.add(own);
  for (const f of t.meta?.ambient ?? []) ids.add(f.rule);
  const rules = [...ids].filter(isRuleId).map((id) => getRule(id));
  return collectRules(rules, [t]).filter((r) => BAD.has(r.status));
}

interface AreaProgress {
  files: number;
  rules: Rule[];
  requests: number;
  fails: number;
}

/** The run's progress state and the lines it prints; the reporter below only forwards vitest's hooks. */
class Progress {
  private readonly write: (s: string) => void;
  private readonly now: () => number;
  private readonly paint: NonNullable<ProgressOptions['paint']>;
  private readonly started: number;
  private readonly perArea = new Map<string, AreaProgress>();
  private readonly selectedIds: Set<string>;
  private readonly testsLeft = new Map<string, number>();
  private readonly done = new Set<string>();
  private readonly reported = new Set<string>();
  /** Setup refusals already printed: each is printed once, not once per rule it blocks. */
  private readonly causes = new Set<string>();
  private requests = 0;
  private fails = 0;
  private area = '';
  private lastPaint = 0;
  private ended = false;
  private timer: NodeJS.Timeout | undefined;
  vitest: Vitest | undefined;
  stopped: string | undefined;
  first: number | undefined;

  constructor(private readonly o: ProgressOptions) {
    this.write = o.write ?? ((s: string) => void process.stderr.write(s));
    this.now = o.now ?? Date.now;
    this.paint = o.paint ?? { red: (s: string) => s, yellow: (s: string) => s, dim: (s: string) => s };
    this.started = this.now();
    this.selectedIds = new Set<string>(o.selected.map((r) => r.id));
    for (const r of o.selected) {
      const a = this.perArea.get(r.area) ?? this.perArea.set(r.area, { files: 0, rules: [], requests: 0, fails: 0 }).get(r.area)!;
      a.rules.push(r);
    }
  }

  private elapsed(): string {
    return `${((this.now() - this.started) / 1000).toFixed(1)} s`;
  }

  private status(): string {
    return `${this.area || '…'} · rules ${this.done.size}/${this.o.selected.length} · ${this.requests} requests · ${this.fails} FAIL ` +
      `· ${this.elapsed()}`;
  }

  private line(s: string): void {
    this.first ??= this.now() - this.started;
    this.write(this.o.live ? `\r\x1b[K${s}\n` : `${s}\n`);
    this.repaint(true);
  }

  repaint(force = false): void {
    if (!this.o.live || this.ended || (!force && this.now() - this.lastPaint < 100)) return;
    this.lastPaint = this.now();
    this.first ??= this.now() - this.started;
    this.write(`\r\x1b[K${this.status()}`);
  }

  private markDone(id: string): void {
    if (this.selectedIds.has(id)) this.done.add(id);
  }

  runStarted(specs: ReadonlyArray<TestSpecification>): void {
    for (const s of specs) {
      const a = AREA_OF_PATH.exec(s.moduleId)?.[1];
      if (a && this.perArea.has(a)) this.perArea.get(a)!.files++;
    }
    // An area without suite files (every rule untestable) has nothing to wait for.
    for (const a of this.perArea.values()) if (a.files === 0) a.rules.forEach((r) => this.markDone(r.id));
    if (this.o.live) this.timer = setInterval(() => this.repaint(true), 1000).unref();
    else this.line(`running ${this.o.selected.length} rules in ${[...this.perArea.values()].filter((a) => a.files > 0).length} ` +
      `area(s), ${specs.length} suite file(s)…`);
    this.repaint(true);
  }

  moduleCollected(m: TestModule): void {
    for (const tc of m.children.allTests()) {
      const id = ruleIdOfTitle(tc.name);
      if (id) this.testsLeft.set(id, (this.testsLeft.get(id) ?? 0) + 1);
    }
  }

  testFinished(tc: TestCase): void {
    const t = finishedOf(tc);
    this.area = AREA_OF_PATH.exec(tc.module.moduleId)?.[1] ?? this.area;
    const n = t.meta?.requests ?? 0;
    this.requests += n;
    const a = this.perArea.get(this.area);
    if (a) a.requests += n;
    const id = ruleIdOfTitle(t.title);
    if (id) {
      const left = (this.testsLeft.get(id) ?? 1) - 1;
      this.testsLeft.set(id, left);
      if (left <= 0) this.markDone(id);
    }
    for (const r of badRulesOf(t)) this.reportBad(r);
    if (this.o.maxFailures !== undefined && this.fails >= this.o.maxFailures && !this.stopped && this.vitest) {
      this.stopped = `stopped after ${this.fails} FAIL rule(s) (--max-failures ${this.o.maxFailures})`;
      this.line(this.stopped);
      void this.vitest.cancelCurrentRun('test-failure');
    }
    this.repaint();
  }

  /** A rule judged badly is printed once, at once, with its replay line. */
  private reportBad(r: RuleReport): void {
    if (this.reported.has(r.id) || !this.selectedIds.has(r.id)) return;
    this.reported.add(r.id);
    if (r.blocked_by !== undefined) return this.reportCause(r, r.blocked_by);
    this.o.replay([r]);
    const replays = r.evidence.flatMap((e) => (e.kind === 'replay' ? [e.command] : []));
    const replay = replays[0];
    // The first failing fixed case alone, when a case failed (addReplayLines adds it after the rule's line).
    const oneCase = replays.find((c) => / --case /.test(c));
    const word = r.status.toUpperCase();
    const colour = r.status === 'warn' || r.status === 'flaky' ? this.paint.yellow : this.paint.red;
    if (r.status === 'fail') {
      this.fails++;
      const ra = this.perArea.get(r.area);
      if (ra) ra.fails++;
    }
    // The reason and replay line may carry the target's text: one line each, no control character.
    // Redacted again as printed: the replay line is built here (a base_url's user:pass@ is stripped).
    const reason = inertLine(redactText(`${r.id} — ${r.reason ?? ''}`)).slice(0, 290);
    const dim = (
      label: string,
      command: string | undefined,
    ) => (command === undefined ? '' : `\n      ${this.paint.dim(`${label}: ${inertLine(redactText(command))}`)}`);
    this.line(`${colour(word.padEnd(5))} ${reason}${dim(
      'replay',
      replay,
    )}${oneCase !== replay ? dim('replay the case alone', oneCase) : ''}`);
  }

  /** A setup refusal, printed the first time a rule is blocked by it; it counts as one failure. */
  private reportCause(r: RuleReport, cause: string): void {
    if (this.causes.has(cause)) return;
    this.causes.add(cause);
    this.fails++;
    const ra = this.perArea.get(r.area);
    if (ra) ra.fails++;
    this.line(`${this.paint.red('BLOCKED'.padEnd(5))} ${inertLine(redactText(`setup refused: ${cause} (first blocked ${r.id}; every rule it blocks is ERROR, listed under setup_refusals)`)).slice(0, 290)}`);
  }

  moduleEnded(m: TestModule): void {
    const name = AREA_OF_PATH.exec(m.moduleId)?.[1];
    const a = name ? this.perArea.get(name) : undefined;
    if (!a || --a.files > 0) return;
    for (const r of a.rules) this.markDone(r.id);
    if (!this.o.live) this.line(`${name}: ${a.rules.length} rules done · ${a.fails} FAIL · ${a.requests} requests · ` +
      `rules ${this.done.size}/${this.o.selected.length} · ${this.elapsed()}`);
    else this.repaint(true);
  }

  runEnded(): void {
    this.ended = true;
    if (this.timer) clearInterval(this.timer);
    if (this.o.live) this.write(`\r\x1b[K`);
  }
}

export function createProgress(o: ProgressOptions): RunMonitor {
  const p = new Progress(o);
  const reporter: Reporter = {
    onInit: (v) => {
      p.vitest = v;
    },
    onTestRunStart: (specs: ReadonlyArray<TestSpecification>) => p.runStarted(specs),
    onTestModuleCollected: (m: TestModule) => p.moduleCollected(m),
    onTestCaseResult: (tc: TestCase) => p.testFinished(tc),
    onTestModuleEnd: (m: TestModule) => p.moduleEnded(m),
    onTestRunEnd: () => p.runEnded(),
  };
  return { reporter, stopReason: () => p.stopped, firstLineMs: () => p.first };
}
