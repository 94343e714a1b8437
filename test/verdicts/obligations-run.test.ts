/**
 * The run's claim is per obligation (DESIGN principle 16, docs/rulings.md): a rule that passed while it said one
 * obligation of its clauses was not tried (`t.notTried`, task.meta.notTried) is no PASS for that obligation, and its class
 * is not tested, naming the obligation and why; the profile's doing keeps the verdict of what was tested `conformant`,
 * the rule's own makes it `incomplete`. Judged as a whole run (judgeRun: every service rule, all passing), rendered, and
 * checked against the report schema. Imports only what was there before, so it runs (and fails) on the old code.
 */
import { describe, expect, it } from 'vitest';
import { getRule, selectRules, type RuleId } from '../../catalogue/index.ts';
import type { HpsMeta } from '../../core/evidence.ts';
import { ajv } from '../../catalogue/schemas/ajv.ts';
import { reportSchema } from '../../catalogue/schemas/report.ts';
import type { Report } from '../../catalogue/report/model.ts';
import type { FinishedTest } from '../../results/verdict/collect.ts';
import { judgeRun } from '../../results/verdict/judge-run.ts';
import { reportProblems } from '../../results/verdict/verify.ts';
import { renderHtml } from '../../results/render/html.ts';
import { renderMarkdown } from '../../results/render/markdown.ts';
import { renderJunit } from '../../results/render/junit.ts';

const validReport = ajv.compile(reportSchema);
const OBLIGATION = 'create.field.customer_id#same-environment';
const RULE: RuleId = 'ORDER-INVALID-CUSTOMER';

/** Every service rule's one test passing (untestable rules: none), `extra` merged into RULE's meta. */
function passingRun(extra: Partial<HpsMeta>, failing?: RuleId): Report {
  const selected = selectRules({});
  const tests: FinishedTest[] = selected.filter((r) => !r.untestable).map((r) => ({
    title: `${r.id}: ${r.requirement}`,
    state: r.id === failing ? 'fail' : 'pass',
    durationMs: 1,
    errors: r.id === failing ? ['expected 404, got 200'] : [],
    meta: { rule: r.id, checks: 1, requests: 1, ...(r.id === RULE ? extra : {}) },
  }));
  return judgeRun({
    target: { base_url: 'http://127.0.0.1:1', embedded_reference: false },
    ctx: { runId: 'ob1', seed: 1, runs: 100, profilePath: null, replayArgs: [] },
    startedAt: new Date(0), selected, selection: { areas: [], rules: [] }, tests, secrets: [],
    pace: { maxRps: null, concurrency: 8 }, policy: {}, required: [],
  }).report;
}

const byProfile = {
  notTried: [{ obligation: OBLIGATION, why: 'fixtures.live_customer_id is absent', needs: ['fixtures.live_customer_id'] }],
};
const ofItsOwn = { notTried: [{ obligation: OBLIGATION, why: 'a Live readiness refusal came <first>' }] };

describe('a rule that passed without trying one obligation of its clauses', () => {
  it('control: every rule passed and said nothing: every class conformant, the verdict conformant', () => {
    const report = passingRun({});
    expect(report.verdict).toBe('conformant');
    expect(report.classes!.filter((c) => c.status !== 'conformant')).toEqual([]);
  });

  it('for the profile\'s sake: its class is not tested, naming the obligation and the field; the verdict stays conformant', () => {
    const report = passingRun(byProfile);
    expect(report.rules.find((r) => r.id === RULE)!.status).toBe('pass');
    const orders = report.classes!.find((c) => c.id === getRule(RULE).class)!;
    expect(orders.status).toBe('not_tested');
    expect(orders.missing).toEqual(['fixtures.live_customer_id']);
    expect(orders.reason).toContain(`${OBLIGATION} not tried (${RULE}: fixtures.live_customer_id is absent)`);
    expect(report.classes!.filter((c) => c.status !== 'conformant').map((c) => c.id)).toEqual([orders.id]);
    expect(report.verdict).toBe('conformant');
    expect(validReport(report), JSON.stringify(validReport.errors)).toBe(true);
    expect(reportProblems(report)).toEqual([]);
  });

  it('of its own accord: the class is not tested and the verdict incomplete, incomplete_because naming the obligation', () => {
    const report = passingRun(ofItsOwn);
    expect(report.classes!.find((c) => c.id === getRule(RULE).class)!.status).toBe('not_tested');
    expect(report.verdict).toBe('incomplete');
    expect(report.incomplete_because).toEqual([`${OBLIGATION} not tried: ${RULE}: a Live readiness refusal came <first>`]);
    expect(validReport(report), JSON.stringify(validReport.errors)).toBe(true);
  });

  it('report.json says it per obligation: the obligation not tried with why, the clause\'s others passed', () => {
    type Claimed = { obligations?: { totals: Record<string, number>; entries: Array<Record<string, unknown>> } };
    const report = passingRun(byProfile) as Report & Claimed;
    const entry = report.obligations!.entries.find((e) => e.id === OBLIGATION);
    expect(entry).toMatchObject({ status: 'not_tried', kind: 'rule', rules: [RULE], needs: ['fixtures.live_customer_id'] });
    const other = report.obligations!.entries.find((e) => e.id === 'create.field.customer_id#foreign-rejected');
    expect(other).toMatchObject({ status: 'passed' });
    const t = report.obligations!.totals;
    expect(t.not_tried).toBe(t.untestable! + 1);
    expect(t.passed! + t.failed! + t.not_tried!).toBe(t.obligations);
  });

  it('HTML and Markdown show the obligation not tried, with why, escaped; JUnit names it in the class property', () => {
    const own = passingRun(ofItsOwn);
    const html = renderHtml(own);
    expect(html).toContain('<section id="obligations">');
    expect(html).toMatch(new RegExp(`<code>${OBLIGATION}</code> not tried, a rule said it did not try it: ${RULE}: a Live readiness ` +
      'refusal came &lt;first&gt;'));
    expect(html).not.toContain('came <first>');
    const md = renderMarkdown(own);
    expect(md).toContain('## Obligations of this run');
    expect(md).toMatch(/\d+ obligations: \d+ passed, 0 failed, \d+ not tried \(\d+ of them not reachable through the API\)/);
    expect(md).toContain(`- \`${OBLIGATION}\` not tried, a rule said it did not try it: ${RULE}: ` +
      'a Live readiness refusal came &lt;first&gt;');
    // JUnit has no section of its own: the class property says it, as it says every class.
    expect(renderJunit(own)).toMatch(new RegExp(`name="class\\.orders" value="not tested: [^"]*${OBLIGATION} not tried`));
  });

  it('a failed rule: its clauses\' obligations are listed failed, first, "not told apart" when it tried more than one', () => {
    const report = passingRun(byProfile, 'ORDER-NOT-FOUND');
    expect(report.verdict).toBe('not_conformant');
    const md = renderMarkdown(report);
    const failed = md.indexOf('`create.field.order_id#must-exist` failed (not told apart): ORDER-NOT-FOUND failed; the obligations of ' +
      'its clauses are not told apart');
    expect(failed).toBeGreaterThan(0);
    expect(failed).toBeLessThan(md.indexOf(`\`${OBLIGATION}\` not tried`));
    expect(renderHtml(report)).toContain('<li class="ob-failed"><code>create.field.order_id#must-exist</code> failed (not told apart)');
  });
});
