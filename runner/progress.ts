/**
 * Progress of a run while it is in progress, as a vitest reporter: on a TTY one
 * live line (area, rules done / total, requests, failures, elapsed) repainted
 * in place; elsewhere (CI logs) one plain line per finished area. Every FAIL is
 * printed as soon as its test finishes, with its replay line. With
 * `maxFailures` the run is cancelled after that many FAIL rules (fail fast).
 */
import type { Reporter, TestCase, TestModule, TestSpecification, Vitest } from 'vitest/node';
import { getRule, isRuleId, type Rule } from '../catalogue/index.ts';
import type { RuleReport } from '../report/model.ts';
import { ruleIdOfTitle } from '../catalogue/rule-title.ts';
import { collectRules, type FinishedTest } from '../verdict/collect.ts';
import type { HpsMeta } from '../core/evidence.ts';

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

/** One finished test as the collector sees it (same shape the runner builds at the end). */
export function finishedOf(tc: TestCase): FinishedTest {
  const r = tc.result();
  const state = r.state === 'passed' ? 'pass' : r.state === 'failed' ? 'fail' : 'skip';
  const errors = r.state === 'failed' ? r.errors.map((e) => e.message ?? String(e)) : [];
  return { title: tc.name, state, durationMs: tc.diagnostic()?.duration ?? 0, errors, meta: (tc.meta() as { hps?: HpsMeta }).hps };
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

export function createProgress(o: ProgressOptions): RunMonitor {
  const write = o.write ?? ((s: string) => void process.stderr.write(s));
  const now = o.now ?? Date.now;
  const paint = o.paint ?? { red: (s: string) => s, yellow: (s: string) => s, dim: (s: string) => s };
  const started = now();
  const perArea = new Map<string, { files: number; rules: Rule[]; requests: number; fails: number }>();
  for (const r of o.selected) {
    const a = perArea.get(r.area) ?? perArea.set(r.area, { files: 0, rules: [], requests: 0, fails: 0 }).get(r.area)!;
    a.rules.push(r);
  }
  const testsLeft = new Map<string, number>();
  const done = new Set<string>();
  const reported = new Set<string>();
  let requests = 0;
  let fails = 0;
  let area = '';
  let stopped: string | undefined;
  let first: number | undefined;
  let vitest: Vitest | undefined;
  let timer: NodeJS.Timeout | undefined;
  let lastPaint = 0;
  let ended = false;

  const elapsed = () => `${((now() - started) / 1000).toFixed(1)} s`;
  const status = () => `${area || '…'} · rules ${done.size}/${o.selected.length} · ${requests} requests · ${fails} FAIL · ${elapsed()}`;
  const line = (s: string) => {
    first ??= now() - started;
    write(o.live ? `\r\x1b[K${s}\n` : `${s}\n`);
    repaint(true);
  };
  const repaint = (force = false) => {
    if (!o.live || ended || (!force && now() - lastPaint < 100)) return;
    lastPaint = now();
    first ??= now() - started;
    write(`\r\x1b[K${status()}`);
  };
  const selectedIds = new Set<string>(o.selected.map((r) => r.id));
  const markDone = (id: string) => void (selectedIds.has(id) && done.add(id));

  const onResult = (tc: TestCase) => {
    const t = finishedOf(tc);
    area = AREA_OF_PATH.exec(tc.module.moduleId)?.[1] ?? area;
    const n = t.meta?.requests ?? 0;
    requests += n;
    const a = perArea.get(area);
    if (a) a.requests += n;
    const id = ruleIdOfTitle(t.title);
    if (id) {
      const left = (testsLeft.get(id) ?? 1) - 1;
      testsLeft.set(id, left);
      if (left <= 0) markDone(id);
    }
    for (const r of badRulesOf(t)) {
      if (reported.has(r.id) || !selectedIds.has(r.id)) continue;
      reported.add(r.id);
      o.replay([r]);
      const replay = r.evidence.find((e) => e.kind === 'replay');
      const word = r.status.toUpperCase();
      const colour = r.status === 'warn' || r.status === 'flaky' ? paint.yellow : paint.red;
      if (r.status === 'fail') {
        fails++;
        const ra = perArea.get(r.area);
        if (ra) ra.fails++;
      }
      line(`${colour(word.padEnd(5))} ${r.id} — ${r.reason ?? ''}`.slice(0, 300) + (replay && replay.kind === 'replay' ? `\n      ${paint.dim(`replay: ${replay.command}`)}` : ''));
    }
    if (o.maxFailures !== undefined && fails >= o.maxFailures && !stopped && vitest) {
      stopped = `stopped after ${fails} FAIL rule(s) (--max-failures ${o.maxFailures})`;
      line(stopped);
      void vitest.cancelCurrentRun('test-failure');
    }
    repaint();
  };

  const reporter: Reporter = {
    onInit: (v) => {
      vitest = v;
    },
    onTestRunStart: (specs: ReadonlyArray<TestSpecification>) => {
      for (const s of specs) {
        const a = AREA_OF_PATH.exec(s.moduleId)?.[1];
        if (a && perArea.has(a)) perArea.get(a)!.files++;
      }
      // An area without suite files (every rule untestable) has nothing to wait for.
      for (const a of perArea.values()) if (a.files === 0) a.rules.forEach((r) => markDone(r.id));
      if (o.live) timer = setInterval(() => repaint(true), 1000).unref();
      else line(`running ${o.selected.length} rules in ${[...perArea.values()].filter((a) => a.files > 0).length} area(s), ${specs.length} suite file(s)…`);
      repaint(true);
    },
    onTestModuleCollected: (m: TestModule) => {
      for (const tc of m.children.allTests()) {
        const id = ruleIdOfTitle(tc.name);
        if (id) testsLeft.set(id, (testsLeft.get(id) ?? 0) + 1);
      }
    },
    onTestCaseResult: onResult,
    onTestModuleEnd: (m: TestModule) => {
      const name = AREA_OF_PATH.exec(m.moduleId)?.[1];
      const a = name ? perArea.get(name) : undefined;
      if (!a || --a.files > 0) return;
      for (const r of a.rules) markDone(r.id);
      if (!o.live) line(`${name}: ${a.rules.length} rules done · ${a.fails} FAIL · ${a.requests} requests · rules ${done.size}/${o.selected.length} · ${elapsed()}`);
      else repaint(true);
    },
    onTestRunEnd: () => {
      ended = true;
      if (timer) clearInterval(timer);
      if (o.live) write(`\r\x1b[K`);
    },
  };
  return { reporter, stopReason: () => stopped, firstLineMs: () => first };
}
