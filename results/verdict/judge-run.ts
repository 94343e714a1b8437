/**
 * The verdict pipeline of a run, in one call: finished tests → rules (collect) → replay lines →
 * the report (redacted once more) → traffic → partial mark → verdict policy → conformance
 * classes → the `--require` gate → the exit status. The runner calls it once and writes what it
 * returns; nothing here touches a target, a file or a process.
 */
import type { Rule } from '../../catalogue/index.ts';
import type { KeyContradiction } from '../../core/key-contradiction.ts';
import { redactDeep } from '../../core/redact.ts';
import type { SuiteContextData } from '../../core/run-context.ts';
import { TOOL } from '../../core/version.ts';
import type { Interruption, Report, RuleReport } from '../../catalogue/report/model.ts';
import { mustCounts } from '../../catalogue/report/must-counts.ts';
import { settleClasses } from './classes.ts';
import { collectRules, setupRefusalsOf, type FinishedTest } from './collect.ts';
import { exitCodeOf } from './exit-code.ts';
import { applyKeyContradictions } from './preflight-findings.ts';
import { applyVerdictPolicy, type VerdictPolicy } from './policy.ts';
import { caseReplayCommand, replayCommand } from './replay.ts';
import { exitCodeWithRequire, unmetRequirements, type UnmetRequirement } from './require.ts';
import { tallyStatuses, verdictOf } from './summary.ts';
import { trafficOf } from './traffic.ts';

export interface RunFacts {
  target: { base_url: string; embedded_reference: boolean };
  /** The suites' context: the run's ids, seed and runs, and what replay lines repeat. */
  ctx: Pick<SuiteContextData, 'runId' | 'seed' | 'runs' | 'profilePath' | 'replayArgs' | 'command'>;
  startedAt: Date;
  selected: readonly Rule[];
  selection: Report['selection'];
  tests: readonly FinishedTest[];
  /** Every secret of the profile: the report is redacted once more with them. */
  secrets: readonly string[];
  pace: { maxRps: number | null; concurrency: number };
  policy: VerdictPolicy;
  /** `--require` and the profile's `require`. */
  required: readonly string[];
  /** Set when the run was interrupted: the report is partial, never a certification. */
  partialReason?: string;
  /** The signal that interrupted the run, and when: the rules not reached say so. */
  interrupted?: Interruption;
  /** Declared keys that behaved as the spec forbids (the preflight's): each a FAIL of its rule. */
  contradictions?: readonly KeyContradiction[];
}

export interface RunJudgement {
  report: Report;
  exitCode: number;
  /** Required classes not conformant or not tested (empty when the gate holds or none is required). */
  unmet: UnmetRequirement[];
}

export function judgeRun(f: RunFacts): RunJudgement {
  const rules = collectRules(f.selected, f.tests);
  applyKeyContradictions(rules, f.contradictions ?? []);
  addReplayLines(rules, f.ctx);
  // Secrets never leave, in any form: the whole report is redacted once more before it is written.
  const report = redactDeep(reportOf(f, rules), f.secrets);
  report.traffic = trafficOf(f.selected, f.tests, f.pace);
  if (f.partialReason) Object.assign(report, { partial: true, partial_reason: f.partialReason });
  if (f.interrupted) report.interrupted = f.interrupted;
  applyVerdictPolicy(report, { ...f.policy, ...(f.interrupted ? { interrupted: f.interrupted } : {}) });
  const unmet = unmetRequirements(settleClasses(report), f.required);
  if (f.required.length) report.gate = { required: [...f.required], unmet };
  return { report, exitCode: exitCodeWithRequire(exitCodeOf(report), unmet), unmet };
}

/**
 * A replay line per finding: the rule itself plus, for an ambient finding,
 * the rules whose traffic produced the exchange (their tests send it again).
 */
export function addReplayLines(rules: RuleReport[], ctx: RunFacts['ctx']): void {
  for (const r of rules) {
    if (!['fail', 'warn', 'flaky', 'error'].includes(r.status)) continue;
    const sources = r.evidence.flatMap((e) => (e.kind === 'mismatch' && e.source && e.source.rule !== r.id ? [e.source.rule] : []));
    r.evidence.push({ kind: 'replay', command: replayCommand(ctx, [r.id, ...new Set(sources)].slice(0, 6)) });
    const one = caseReplayCommand(ctx, r);
    if (one) r.evidence.push({ kind: 'replay', command: one });
  }
}

function reportOf(f: RunFacts, rules: RuleReport[]): Report {
  const finished = new Date();
  const refusals = setupRefusalsOf(rules, f.tests);
  return {
    tool: TOOL,
    target: f.target,
    run_id: f.ctx.runId,
    seed: f.ctx.seed,
    runs: f.ctx.runs,
    started_at: f.startedAt.toISOString(),
    finished_at: finished.toISOString(),
    duration_ms: finished.getTime() - f.startedAt.getTime(),
    selection: f.selection,
    // A setup refusal counts as a failure: the rules it blocked are ERROR, the run not conformant.
    verdict: refusals.length ? 'not_conformant' : verdictOf(rules),
    summary: tallyStatuses(rules),
    must: mustCounts(rules),
    requests: f.tests.reduce((n, t) => n + (t.meta?.requests ?? 0), 0),
    rules,
    ...(refusals.length ? { setup_refusals: refusals } : {}),
  };
}
