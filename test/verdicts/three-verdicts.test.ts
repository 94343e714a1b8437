/**
 * Three verdicts (docs/rulings.md): `incomplete` when nothing failed but a MUST rule testable with
 * this profile (the merchant side: this program) did not run, ended ERROR or was not proven; never
 * `not_conformant` (a reader acting on that looks for a defect), never `conformant`. The same word
 * in report.json (closed schema), the certificate, the console, HTML, Markdown and JUnit; exit 6.
 * Each case here failed on the code before: `not_conformant`/exit 1 on the merchant side, and
 * `conformant`/exit 0 for a service run with a testable MUST rule left SKIP.
 */
import { describe, expect, it } from 'vitest';
import { ajv } from '../../catalogue/schemas/ajv.ts';
import { certificateReadSchema, reportSchema } from '../../catalogue/schemas/report.ts';
import type { Report, RuleReport } from '../../catalogue/report/model.ts';
import { mustCounts } from '../../catalogue/report/must-counts.ts';
import { applySidePolicy } from '../../results/verdict/side-policy.ts';
import { renderHtml } from '../../results/render/html.ts';
import { renderJunit } from '../../results/render/junit.ts';
import { renderMarkdown } from '../../results/render/markdown.ts';
import { buildCertificate } from '../../results/verdict/certificate.ts';
import { exitCodeOf } from '../../results/verdict/exit-code.ts';
import { judgeRun } from '../../results/verdict/judge-run.ts';
import { verdictOfReport } from '../../results/verdict/incomplete.ts';
import { applyVerdictPolicy } from '../../results/verdict/policy.ts';
import { tallyStatuses } from '../../results/verdict/summary.ts';
import { reportProblems } from '../../results/verdict/verify.ts';
import { getRule, rulesOfSide, selectRules } from '../../catalogue/index.ts';
import type { FinishedTest } from '../../results/verdict/collect.ts';

function ruleOf(id: string, status: RuleReport['status'], reason?: string): RuleReport {
  const r = getRule(id as Parameters<typeof getRule>[0]);
  return {
    id, area: r.area, level: r.level, status, title: r.requirement, spec: r.section, evidence: [], ...(reason ? { reason } : {}),
    ...(r.untestable ? { untestable: true } : {}),
    tests: status === 'skip' ? [] : [{ title: `${id}: t`, state: status === 'fail' ? 'fail' : 'pass', duration_ms: 1, requests: 1 }],
  };
}

/** A merchant-side report: every rule of the side passes except `odd`, which gets its status and reason. */
function sideReport(side: 'client' | 'receiver', odd: Record<string, [RuleReport['status'], string]>): Report {
  const rules = rulesOfSide(side).map((r) => {
    if (r.untestable) return { ...ruleOf(r.id, 'skip', `not exercisable by this command: ${r.untestable}`), untestable: true };
    const o = odd[r.id];
    return o ? ruleOf(r.id, o[0], o[1]) : ruleOf(r.id, r.level === 'OBSERVE' ? 'info' : 'pass');
  });
  return {
    tool: {
      name: 'hps-conformance',
      version: '0',
    }, side, target: { base_url: 'http://127.0.0.1:1', embedded_reference: true }, run_id: 'cc1', seed: 1, runs: 1,
    started_at: '2026-01-01T00:00:00.000Z', finished_at: '2026-01-01T00:00:01.000Z', duration_ms: 1000, selection: {
      areas: [side],
      rules: [],
    },
    verdict: 'conformant', summary: tallyStatuses(rules), must: mustCounts(rules), requests: 10, rules,
  };
}

const validReport = ajv.compile(reportSchema);
const validCertificate = ajv.compile(certificateReadSchema);

describe('the merchant side: nothing failed, a testable MUST rule not proven → incomplete, exit 6', () => {
  it('a correct client whose short run never met one injected failure (1 testable MUST rule not exercised)', () => {
    const report = sideReport(
      'client',
      { 'CLIENT-SAME-IDEMPOTENCY-KEY': [
        'skip',
        'not exercised by this program: no create was re-sent under its Idempotency-Key after an injected failure',
      ] },
    );
    const exit = applySidePolicy(report, {});
    expect(report.verdict).toBe('incomplete');
    expect(exit).toBe(6);
    expect(report.policy).toBeUndefined();
    expect(report.incomplete_because).toEqual(['CLIENT-SAME-IDEMPOTENCY-KEY not proven (SKIP): not exercised by this program: no create was re-sent under its Idempotency-Key after an injected failure']);
    expect(reportProblems(report)).toEqual([]);
  });

  it('a correct receiver still processing when the inspection was read (not settled yet)', () => {
    const waited = 'not settled yet (waited 10 s): the inspection does not list evt_1 yet';
    const report = sideReport('receiver', { 'RECV-DEDUPLICATE': ['skip', waited], 'RECV-ARRIVAL-ORDER': ['skip', waited] });
    expect(applySidePolicy(report, {})).toBe(6);
    expect(report.verdict).toBe('incomplete');
    expect(report.incomplete_because).toHaveLength(2);
    expect(report.incomplete_because![0]).toContain('not settled yet (waited 10 s)');
    expect(report.classes!.some((c) => c.status === 'not_conformant')).toBe(false);
  });

  it('nothing ran at all: incomplete even with --min-must-coverage 0, saying why first', () => {
    const all = Object.fromEntries(rulesOfSide('client').filter((r) => !r.untestable).map((r) => [
      r.id,
      ['skip', 'not exercised by this program: the command made 0 requests to HPS_BASE_URL'] as [RuleReport['status'], string],
    ]));
    const report = sideReport('client', all);
    expect(applySidePolicy(report, { minMustCoverage: 0 }, 'the command made 0 requests to HPS_BASE_URL')).toBe(6);
    expect(report.incomplete_because![0]).toBe('no evidence: the command made 0 requests to HPS_BASE_URL');
    expect(reportProblems(report)).toEqual([]);
  });

  it('a FAIL stays not_conformant (exit 1) with skips beside it; --strict makes a skip fail (exit 1)', () => {
    const failed = sideReport(
      'client',
      { 'CLIENT-SAME-IDEMPOTENCY-KEY': ['skip', 'not exercised by this program: x'], 'CLIENT-RETRY-TRANSIENT': ['fail', 'never re-sent'] },
    );
    expect(applySidePolicy(failed, {})).toBe(1);
    expect(failed.verdict).toBe('not_conformant');
    const strict = sideReport('client', { 'CLIENT-SAME-IDEMPOTENCY-KEY': ['skip', 'not exercised by this program: x'] });
    expect(applySidePolicy(strict, { strict: true })).toBe(1);
    expect(strict.verdict).toBe('not_conformant');
  });
});

describe('the service side: what "testable with this profile" means', () => {
  const facts = (tests: FinishedTest[], ids: string[]) => ({
    target: {
      base_url: 'http://127.0.0.1:1',
      embedded_reference: false,
    }, ctx: { runId: 'r1', seed: 1, runs: 100, replayArgs: [] as string[] },
    startedAt: new Date(), selected: selectRules({ rules: ids }), selection: {
      areas: [],
      rules: ids,
    }, tests, secrets: [], pace: { maxRps: null, concurrency: 4 }, policy: {}, required: [],
  });
  const t = (rule: string, state: FinishedTest['state'], skipReason?: string, checks = 1): FinishedTest =>
    ({
      title: `${rule}: t`,
      state,
      durationMs: 1,
      errors: [],
      meta: { checks, requests: 1, ...(skipReason ? { skipReason } : {}) },
    }) as unknown as FinishedTest;

  it('a rule the profile cannot test (profile lacks keys.test_revoked) leaves the verdict conformant, exit 0; the class says the scope', () => {
    const j = judgeRun(facts(
      [t('AUTH-MISSING-KEY', 'pass'), t('AUTH-REVOKED-KEY', 'skip', 'profile lacks keys.test_revoked')],
      ['AUTH-MISSING-KEY', 'AUTH-REVOKED-KEY'],
    ) as never);
    expect(j.report.verdict).toBe('conformant');
    expect(j.exitCode).toBe(0);
  });

  it('a testable MUST rule that made 0 checks is incomplete, exit 6; with --require of its class, exit 4', () => {
    const f = facts(
      [t('AUTH-MISSING-KEY', 'pass'), t('AUTH-MALFORMED-KEY', 'pass', undefined, 0)],
      ['AUTH-MISSING-KEY', 'AUTH-MALFORMED-KEY'],
    );
    const j = judgeRun(f as never);
    expect(j.report.rules.find((r) => r.id === 'AUTH-MALFORMED-KEY')!.status).toBe('skip');
    expect(j.report.verdict).toBe('incomplete');
    expect(j.exitCode).toBe(6);
    expect(judgeRun({ ...f, required: ['core'] } as never).exitCode).toBe(4);
  });
});

describe('the same word everywhere', () => {
  const report = sideReport(
    'client',
    { 'CLIENT-SAME-IDEMPOTENCY-KEY': ['skip', 'not exercised by this program: no create met a failure'] },
  );
  applySidePolicy(report, {});

  it('report.json and the certificate validate with incomplete; the schema\'s verdict enum is closed', () => {
    expect(validReport(report), JSON.stringify(validReport.errors)).toBe(true);
    expect(validReport({ ...report, verdict: 'partly_conformant' })).toBe(false);
    const cert = buildCertificate(report, JSON.stringify(report), null);
    expect(cert.verdict).toBe('incomplete');
    expect(validCertificate(cert)).toBe(true);
    expect(validCertificate({ ...cert, verdict: 'partly_conformant' })).toBe(false);
    expect(verdictOfReport(report)).toBe('incomplete');
    expect(reportProblems({ ...report, verdict: 'not_conformant' })).toContain('verdict not_conformant, but the rules give incomplete');
  });

  it('HTML, Markdown and JUnit say incomplete, never not conformant', () => {
    const page = renderHtml(report);
    expect(page).toContain('<span class="verdict v-warn" id="verdict">INCOMPLETE</span>');
    expect(page).toContain('Why the verdict is incomplete');
    expect(page).not.toContain('NOT CONFORMANT');
    const md = renderMarkdown(report);
    expect(md).toContain('⚠️ incomplete');
    expect(md).not.toContain('not conformant');
    expect(renderJunit(report)).toContain('<property name="verdict" value="incomplete"/>');
  });

  it('exit statuses: 0 conformant, 1 not conformant, 6 incomplete', () => {
    const ok = sideReport('client', {});
    applyVerdictPolicy(ok, {});
    expect([exitCodeOf(ok), exitCodeOf(report)]).toEqual([0, 6]);
  });
});
