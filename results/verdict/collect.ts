/**
 * Maps finished vitest tasks to catalogued rules (a test belongs to the rule
 * its title starts with; ambient findings to the rule they name) and decides
 * each rule's status by its level: a failed MUST is FAIL, a failed SHOULD is
 * WARN, an OBSERVE is INFO; transport trouble is ERROR, a counterexample that
 * passes when replayed is FLAKY.
 */
import { ruleIdOfTitle } from '../../catalogue/rule-title.ts';
import type { Rule } from '../../catalogue/index.ts';
import type { CaseReport, Evidence, NotTried, RuleReport, SetupRefusalReport } from '../../catalogue/report/model.ts';
import type { Finding, HpsMeta, SetupRefusal } from '../../core/evidence.ts';
import { failedStatus, passedStatus } from './level-status.ts';

export interface FinishedTest {
  title: string;
  state: 'pass' | 'fail' | 'skip';
  durationMs: number;
  errors: string[];
  meta: HpsMeta | undefined;
}


export function collectRules(selected: readonly Rule[], tests: readonly FinishedTest[]): RuleReport[] {
  const byRule = new Map<string, FinishedTest[]>();
  const ambient = new Map<string, Finding[]>();
  const ambientChecks = new Map<string, number>();
  for (const t of tests) {
    const id = ruleIdOfTitle(t.title);
    if (id) (byRule.get(id) ?? byRule.set(id, []).get(id)!).push(t);
    for (const f of t.meta?.ambient ?? []) (ambient.get(f.rule) ?? ambient.set(f.rule, []).get(f.rule)!).push(f);
    for (const [r, n] of Object.entries(t.meta?.ambientChecked ?? {})) ambientChecks.set(r, (ambientChecks.get(r) ?? 0) + n);
  }
  return selected.map((rule) => decide(rule, byRule.get(rule.id) ?? [], ambient.get(rule.id) ?? [], ambientChecks.get(rule.id) ?? 0));
}

/** vitest's own time-out message: the test ran out of time, which decides nothing about the target. */
const VITEST_TIMEOUT = /^Test timed out in \d+ms/;

function incomplete(t: FinishedTest): string | undefined {
  if (t.meta?.transport) return t.meta.transport;
  if (t.meta?.incomplete) return t.meta.incomplete;
  const first = t.errors[0] ?? '';
  return VITEST_TIMEOUT.test(first) ? first.split('\n')[0] : undefined;
}

function decide(rule: Rule, tests: FinishedTest[], findings: Finding[], ambientChecks: number): RuleReport {
  const base = baseReport(rule, tests);
  if (rule.untestable && tests.length === 0) {
    return { ...base, untestable: true, reason: `not exercisable through the API: ${rule.untestable}` };
  }
  const observed = observedOf(tests);
  if (observed) base.observed = observed;
  return failedVerdict(rule, base, tests, findings) ?? ranVerdict(rule, base, tests, ambientChecks);
}

/** The rule's report before any verdict: what it is and which tests ran for it (none: a rule no test ran). */
export function baseReport(rule: Rule, tests: FinishedTest[]): RuleReport {
  const base: RuleReport = {
    id: rule.id,
    area: rule.area,
    level: rule.level,
    status: 'skip',
    title: rule.requirement,
    spec: rule.section,
    evidence: [],
    tests: tests.map((t) => ({
      title: t.title,
      state: t.state,
      duration_ms: Math.round(t.durationMs),
      requests: t.meta?.requests ?? 0,
      ...(t.meta?.cases !== undefined ? { cases: t.meta.cases } : {}),
      ...(t.state === 'fail' ? { error: t.errors[0]?.split('\n')[0] } : {}),
    })),
  };
  if (rule.ruling) base.ruling = rule.ruling;
  const cases = casesOf(tests);
  if (cases.length) base.cases = cases;
  const notTried = notTriedOf(tests);
  if (notTried.length) base.not_tried = notTried;
  return base;
}

/** The obligations the rule's tests said they did not try (RuleContext.notTried), each once, with the first test's why. */
function notTriedOf(tests: FinishedTest[]): NotTried[] {
  const out = new Map<string, NotTried>();
  for (const n of tests.flatMap((t) => t.meta?.notTried ?? [])) if (!out.has(n.obligation)) out.set(n.obligation, n);
  return [...out.values()];
}

/** The rows of the rule's fixed tables, in number order (a rule's tests number their rows apart: the first keeps its numbers). */
function casesOf(tests: FinishedTest[]): CaseReport[] {
  const seen = new Set<number>();
  return tests
    .flatMap((t) => t.meta?.fixedCases ?? [])
    .filter((c) => !seen.has(c.n) && seen.add(c.n))
    .sort((a, b) => a.n - b.n)
    .map((c) => ({ n: c.n, title: c.title, status: c.status, ...(c.reason !== undefined ? { reason: c.reason } : {}) }));
}

/** What the tests observed (including answers to probes outside ordinary HTTP), or undefined. */
function observedOf(tests: FinishedTest[]): Record<string, unknown> | undefined {
  const observed: Record<string, unknown> = Object.assign({}, ...tests.map((t) => t.meta?.observed ?? {}));
  const outside = tests.flatMap((t) => t.meta?.outsideHttp ?? []);
  if (outside.length) observed['answers to probes outside ordinary HTTP (observed, never judged by the ambient rules)'] = outside;
  return Object.keys(observed).length ? observed : undefined;
}

/** Adds the evidence of failed tests and findings; the verdict when something failed (real, flaky or transport), else undefined. */
function failedVerdict(rule: Rule, base: RuleReport, tests: FinishedTest[], findings: Finding[]): RuleReport | undefined {
  const failed = tests.filter((t) => t.state === 'fail');
  const transport = failed.filter((t) => incomplete(t));
  const flaky = failed.filter((t) => !incomplete(t) && t.meta?.property?.replayOutcome === 'pass');
  const judged = failed.filter((t) => !incomplete(t) && t.meta?.property?.replayOutcome !== 'pass');
  // A test whose setup was refused checked nothing of its rule: blocked, unless the rule failed otherwise too.
  const blocked = judged.filter((t) => t.meta?.setupRefusal);
  const real = judged.filter((t) => !t.meta?.setupRefusal);

  for (const t of failed) base.evidence.push(...evidenceOf(t));
  for (const f of findings.slice(0, 5)) {
    base.evidence.push({
      kind: 'mismatch',
      message: f.message,
      expected: f.expected,
      actual: f.actual,
      ...(f.source ? { source: f.source } : {}),
    });
    if (f.exchange) base.evidence.push({ kind: 'exchange', exchange: f.exchange });
  }

  if (real.length || findings.length) {
    const f0 = findings[0];
    const first = real[0]?.errors[0]?.split('\n')[0] ?? (f0 ? `${f0.message}${f0.source && f0.source.rule !== rule.id ? ` (traffic ` +
      `of ${f0.source.rule})` : ''}` : undefined);
    const extra = findings.length ? `${findings.length} ambient violation(s)` : '';
    return {
      ...base,
      status: failedStatus(rule.level),
      reason: [first, real.length > 1 ? `${real.length} tests failed` : '', real.length && extra ? extra : ''].filter(Boolean).join('; '),
    };
  }
  if (blocked.length) {
    const cause = setupCause(blocked[0]!.meta!.setupRefusal!);
    return {
      ...base,
      status: 'error',
      blocked_by: cause,
      reason: `blocked by a setup refusal: ${cause} (the rule could not be checked; the refusal is listed once under setup_refusals)`,
    };
  }
  if (flaky.length) {
    return {
      ...base,
      status: 'flaky',
      reason: `a counterexample failed, then passed when replayed with the same seed: ${flaky[0]!.errors[0]?.split('\n')[0] ?? ''}`,
    };
  }
  if (transport.length) {
    return { ...base, status: 'error', reason: incomplete(transport[0]!) };
  }
  return undefined;
}

/** What `blocked_by` and `setup_refusals[].cause` name: the request and the answer. */
function setupCause(r: SetupRefusal): string {
  return `${r.request} answered ${r.status}${r.code ? ` ${r.code}` : ''}`;
}

/**
 * Each setup refusal once, with the rules it blocked (in the order of the rules), from the
 * rules' `blocked_by` and the refusals their tests recorded.
 */
export function setupRefusalsOf(rules: readonly RuleReport[], tests: readonly FinishedTest[]): SetupRefusalReport[] {
  const byCause = new Map<string, SetupRefusal>();
  for (const t of tests) if (t.meta?.setupRefusal) byCause.set(setupCause(t.meta.setupRefusal), t.meta.setupRefusal);
  const out = new Map<string, SetupRefusalReport>();
  for (const r of rules) {
    const refusal = r.blocked_by === undefined ? undefined : byCause.get(r.blocked_by);
    if (!refusal) continue;
    const entry = out.get(r.blocked_by!) ?? { cause: r.blocked_by!, areas: [], ...refusal, rules: [] };
    if (!entry.areas.includes(r.area)) entry.areas.push(r.area);
    entry.rules.push(r.id);
    out.set(entry.cause, entry);
  }
  return [...out.values()];
}

/** Nothing failed: pass, info or skip, by what ran and how many checks it made. */
function ranVerdict(rule: Rule, base: RuleReport, tests: FinishedTest[], ambientChecks: number): RuleReport {
  const ran = tests.filter((t) => t.state === 'pass');
  if (ran.length === 0) {
    const reasons = [...new Set(tests.map((t) => t.meta?.skipReason).filter(Boolean))];
    return {
      ...base,
      status: 'skip',
      reason: reasons.length ? reasons.join('; ') : tests.length ? 'skipped' : 'no test in this selection',
    };
  }
  const notes = tests.flatMap((t) => t.meta?.notes ?? []);
  if (notes.length) base.evidence.push(...notes.map((message) => ({ kind: 'note' as const, message })));
  const checks = ran.reduce((n, t) => n + (t.meta?.checks ?? 0), 0) + ambientChecks;
  base.checks = checks;
  // No vacuous pass: a rule that checked nothing says so.
  if (rule.level === 'OBSERVE') {
    if (checks === 0 && !base.observed) return { ...base, status: 'skip', reason: 'nothing was observed for this rule' };
    return { ...base, status: passedStatus(rule.level) };
  }
  if (checks === 0) {
    const why = [...new Set(tests.map((t) => t.meta?.skipReason).filter(Boolean))];
    return { ...base, status: 'skip', reason: `0 checks made${why.length ? `: ${why.join('; ')}` : ''}` };
  }
  return { ...base, status: passedStatus(rule.level) };
}

function evidenceOf(t: FinishedTest): Evidence[] {
  const m = t.meta;
  const out: Evidence[] = [];
  const message = t.errors[0]?.split('\n')[0] ?? 'failed';
  out.push({
    kind: 'mismatch',
    message: `${t.title.split(':')[0]}: ${message}`,
    expected: m?.mismatch?.expected,
    actual: m?.mismatch?.actual,
  });
  if (m?.property) {
    const p = m.property;
    out.push({
      kind: 'property',
      seed: p.seed,
      runs: p.runs,
      path: p.path,
      counterexample: p.counterexample,
      replayOutcome: p.replayOutcome,
      shrinks: p.shrinks,
      shrink_note: p.shrink_note,
    });
  }
  out.push(...(m?.timelines ?? []));
  if (m?.failedExchange) out.push({ kind: 'exchange', exchange: m.failedExchange, failing: true });
  for (const ex of (m?.transcript ?? []).filter((x) => x.seq !== m?.failedExchange?.seq).slice(-3)) out.push({
    kind: 'exchange',
    exchange: ex,
  });
  return out;
}
