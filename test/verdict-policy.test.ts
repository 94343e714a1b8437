/** --strict and --min-must-coverage change the verdict (never a rule's status) and say why. */
import { describe, expect, it } from 'vitest';
import { applyVerdictPolicy, mustCoverage } from '../results/verdict/policy.ts';
import { exitCodeOf } from '../results/verdict/exit-code.ts';
import type { Report, RuleReport } from '../catalogue/report/model.ts';

function rule(id: string, level: RuleReport['level'], status: RuleReport['status'], extra: Partial<RuleReport> = {}): RuleReport {
  return {
    id,
    area: 'auth',
    level,
    status,
    title: id,
    spec: '§',
    evidence: [],
    tests: [{ title: `${id}: t`, state: status === 'skip' ? 'skip' : 'pass', duration_ms: 1, requests: 1 }],
    ...extra,
  };
}

function report(rules: RuleReport[]): Report {
  const must = rules.filter((r) => r.level === 'MUST');
  const summary = { pass: 0, fail: 0, warn: 0, info: 0, skip: 0, error: 0, flaky: 0 };
  for (const r of rules) summary[r.status]++;
  return {
    tool: {
      name: 'hps-conformance',
      version: '0',
    }, target: { base_url: 'http://127.0.0.1:1', embedded_reference: true }, run_id: 'r', seed: 1, runs: 100,
    started_at: '', finished_at: '', duration_ms: 0, selection: { areas: [], rules: [] }, verdict: 'conformant', summary,
    must: {
      total: must.length,
      testable: must.filter((r) => !r.untestable).length,
      untestable: must.filter((r) => r.untestable).length,
      ran: must.filter((r) => r.status === 'pass').length,
      passed: 0,
      failed: 0,
      skipped: 0,
    },
    requests: 0, rules,
  };
}

describe('verdict policy', () => {
  const rules = () => [
    rule('A-1', 'MUST', 'pass'),
    rule('A-2', 'MUST', 'skip'),
    rule('A-3', 'SHOULD', 'warn'),
    rule('A-4', 'MUST', 'skip', { untestable: true }),
  ];

  it('without a policy a WARN and a MUST rule the profile cannot test are conformant (the classes say the scope)', () => {
    const r = report([
      rule('A-1', 'MUST', 'pass'),
      rule('A-2', 'MUST', 'skip', { reason: 'profile lacks keys.live' }),
      rule('A-3', 'SHOULD', 'warn'),
      rule('A-4', 'MUST', 'skip', { untestable: true }),
    ]);
    applyVerdictPolicy(r, {});
    expect(r.verdict).toBe('conformant');
    expect(r.policy).toBeUndefined();
    expect(r.incomplete_because).toBeUndefined();
    expect(exitCodeOf(r)).toBe(0);
  });

  it('a testable MUST rule left SKIP (nothing failed) is incomplete, exit 6, saying which and why', () => {
    const r = report(rules());
    r.rules[1]!.reason = '0 checks made';
    applyVerdictPolicy(r, {});
    expect(r.verdict).toBe('incomplete');
    expect(r.incomplete_because).toEqual(['A-2 not proven (SKIP): 0 checks made']);
    expect(exitCodeOf(r)).toBe(6);
  });

  it('a MUST rule that ended ERROR is incomplete, never not conformant; its exit stays 3 (the target)', () => {
    const r = report([rule('A-1', 'MUST', 'pass'), rule('A-2', 'MUST', 'error', { reason: 'connection refused' })]);
    applyVerdictPolicy(r, {});
    expect(r.verdict).toBe('incomplete');
    expect(exitCodeOf(r)).toBe(3);
  });

  it('--strict fails on a WARN and on a skipped testable MUST rule, not on an untestable one', () => {
    const r = report(rules());
    applyVerdictPolicy(r, { strict: true });
    expect(r.verdict).toBe('not_conformant');
    expect(r.policy!.failed_because.join('\n')).toMatch(/1 SHOULD rule\(s\) warned \(A-3\)/);
    expect(r.policy!.failed_because.join('\n')).toMatch(/1 testable MUST rule\(s\) skipped \(A-2\)/);
    expect(r.policy!.failed_because.join('\n')).not.toContain('A-4');
    expect(r.rules.map((x) => x.status)).toEqual(['pass', 'skip', 'warn', 'skip']);
    expect(exitCodeOf(r)).toBe(1);
  });

  it('--strict with nothing to object to keeps the verdict', () => {
    const r = report([rule('A-1', 'MUST', 'pass'), rule('A-3', 'SHOULD', 'pass')]);
    applyVerdictPolicy(r, { strict: true });
    expect(r.verdict).toBe('conformant');
    expect(r.policy).toEqual({ strict: true, failed_because: [] });
  });

  it('--min-must-coverage compares the share of testable MUST rules that ran, at the edge', () => {
    const r1 = report(rules()); // 1 of 2 testable ran: 50 %
    expect(mustCoverage(r1)).toEqual({ ran: 1, testable: 2, pct: 50 });
    applyVerdictPolicy(r1, { minMustCoverage: 50 });
    expect(r1.verdict).toBe('conformant');
    const r2 = report(rules());
    applyVerdictPolicy(r2, { minMustCoverage: 51 });
    expect(r2.verdict).toBe('not_conformant');
    expect(r2.policy!.failed_because[0]).toBe('--min-must-coverage 51: 1 of 2 testable MUST rules ran (50 %)');
  });

  it('a target error keeps its exit status 3 under any policy', () => {
    const r = report([...rules(), rule('A-5', 'MUST', 'error')]);
    applyVerdictPolicy(r, { strict: true });
    expect(exitCodeOf(r)).toBe(3);
  });

  it('a stopped run marks the rules it did not reach', () => {
    const r = report(rules());
    applyVerdictPolicy(r, { stopped: 'stopped after 1 FAIL rule(s) (--max-failures 1)' });
    expect(r.stopped).toMatch(/max-failures/);
    expect(r.rules[1]!.reason).toBe('not reached: stopped after 1 FAIL rule(s) (--max-failures 1)');
    expect(r.rules[3]!.reason).toBeUndefined();
  });
});
