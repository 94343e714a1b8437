/**
 * The derivation of the run's claim per obligation (results/verdict/obligations.ts) from finished tests: passed needs a
 * passing rule that tried it; a rule's `t.notTried` makes it not tried, with why; a failure is attributed to one
 * obligation only when the failing rule's clauses hold no other it tried, else "not told apart"; not reached, the
 * profile's lack, ERROR and the catalogue's untestable each say so. Also: report.json's schema holds the new fields.
 */
import { describe, expect, it } from 'vitest';
import { getRule, RULES, type Rule, type RuleId } from '../../catalogue/index.ts';
import { OBLIGATIONS, obligationsOfClauses } from '../../catalogue/obligations.ts';
import type { HpsMeta } from '../../core/evidence.ts';
import { ajv } from '../../catalogue/schemas/ajv.ts';
import { reportSchema } from '../../catalogue/schemas/report.ts';
import type { ObligationResult } from '../../catalogue/report/model.ts';
import { collectRules, type FinishedTest } from '../../results/verdict/collect.ts';
import { obligationsOf } from '../../results/verdict/obligations.ts';

function test(rule: RuleId, state: FinishedTest['state'], meta: Partial<HpsMeta> = {}): FinishedTest {
  const errors = state === 'fail' ? ['expected 400, got 201'] : [];
  return { title: `${rule}: t`, state, durationMs: 1, errors, meta: { rule, checks: 1, ...meta } };
}

/** The per-obligation claim of a run of these rules alone (every other rule filtered out). */
function claim(tests: FinishedTest[], skipped: Array<[RuleId, string]> = []): Map<string, ObligationResult> {
  const ids = [...new Set([...tests.map((t) => t.title.split(':')[0] as RuleId), ...skipped.map(([id]) => id)])];
  const withSkips = [...tests, ...skipped.map(([id, why]): FinishedTest => ({ ...test(id, 'skip', { skipReason: why }) }))];
  const rules = collectRules(ids.map(getRule), withSkips);
  return new Map(obligationsOf({ rules }).entries.map((e) => [e.id, e]));
}

const untestable = new Set(OBLIGATIONS.filter((o) => o.untestable).map((o) => o.id));
const testableOf = (r: Rule) => obligationsOfClauses(r.clauses).filter((id) => !untestable.has(id));
/** A service MUST rule whose clauses hold exactly one testable obligation: its failure is that obligation's. */
const single = (RULES as readonly Rule[]).find((r) => r.level === 'MUST' && !r.untestable && !('side' in r) && testableOf(r).length === 1)!;

describe('passed, failed or not tried, per obligation', () => {
  it('a passing rule that said nothing tried every obligation of its clauses: each passed, by that rule', () => {
    const c = claim([test('ORDER-INVALID-CUSTOMER', 'pass')]);
    for (const id of testableOf(getRule('ORDER-INVALID-CUSTOMER'))) {
      expect(c.get(id)).toMatchObject({ status: 'passed', rules: ['ORDER-INVALID-CUSTOMER'] });
    }
  });

  it('t.notTried: that obligation is not tried, with the rule, why and the fields; the clause\'s others passed', () => {
    const notTried = [
      { obligation: 'create.field.customer_id#same-environment', why: 'no Live customer', needs: ['fixtures.live_customer_id'] },
    ];
    const c = claim([test('ORDER-INVALID-CUSTOMER', 'pass', { notTried })]);
    expect(c.get('create.field.customer_id#same-environment')).toEqual({
      id: 'create.field.customer_id#same-environment', clause: 'create.field.customer_id', status: 'not_tried',
      rules: ['ORDER-INVALID-CUSTOMER'],
      kind: 'rule', why: 'ORDER-INVALID-CUSTOMER: no Live customer', needs: ['fixtures.live_customer_id'],
    });
    expect(c.get('create.field.customer_id#foreign-rejected')!.status).toBe('passed');
  });

  it('the rule that says it did not try an obligation owns it: another rule citing the clause passing does not make it passed', () => {
    const notTried = [{ obligation: 'create.field.order_id#same-environment', why: 'no Live order' }];
    const c = claim([test('ORDER-NOT-FOUND', 'pass', { notTried }), test('ORDER-WITHIN-DUE', 'pass')]);
    const e = c.get('create.field.order_id#same-environment');
    expect(e).toMatchObject({ status: 'not_tried', kind: 'rule', rules: ['ORDER-NOT-FOUND'] });
    expect(c.get('create.field.order_id#within-due')!.status).toBe('passed');
  });

  it('a failure is the obligation\'s when the rule tried no other; else every obligation of its clauses failed, "not told apart"', () => {
    expect(testableOf(single)).toHaveLength(1);
    expect(claim([test(single.id, 'fail')]).get(testableOf(single)[0]!)).toMatchObject({
      status: 'failed', rules: [single.id], attributed: true, why: `${single.id} failed`,
    });
    const c = claim([test('ORDER-NOT-FOUND', 'fail')]);
    expect(c.get('create.field.order_id#must-exist')).toMatchObject({
      status: 'failed', attributed: false, why: 'ORDER-NOT-FOUND failed; the obligations of its clauses are not told apart',
    });
  });

  it('a failing rule that said it did not try an obligation does not fail it; what it left as the only one it tried is attributed', () => {
    const rule = getRule('ORDER-INVALID-CUSTOMER');
    const others = testableOf(rule).filter((id) => id !== 'create.field.customer_id#foreign-rejected');
    const c = claim([test(rule.id, 'fail', { notTried: others.map((obligation) => ({ obligation, why: 'not this time' })) })]);
    expect(c.get('create.field.customer_id#foreign-rejected')).toMatchObject({ status: 'failed', attributed: true });
    for (const id of others) expect(c.get(id)).toMatchObject({ status: 'not_tried', kind: 'rule' });
  });

  it('not tried for want of a passing rule: filtered out, the profile lacks a field, ERROR; and what no request can show', () => {
    const c = claim([test('AUTH-MISSING-KEY', 'pass')], [['ORDER-INVALID-CUSTOMER', 'profile lacks fixtures.foreign_customer_id']]);
    expect(c.get('create.field.customer_id#own-accepted'))
      .toMatchObject({ status: 'not_tried', kind: 'profile', needs: ['fixtures.foreign_customer_id'] });
    expect(c.get('create.field.order_id#within-due')).toMatchObject({ status: 'not_tried', kind: 'not_reached' });
    expect(c.get('create.field.order_id#within-due')!.why).toMatch(/^ORDER-[A-Z-]+ filtered out; /);
    expect(c.get('create.field.order_id#within-due')!.rules).toContain('ORDER-WITHIN-DUE');
    expect(c.get('overview.test-touches-no-money#no-real-money')).toMatchObject({ status: 'not_tried', kind: 'untestable' });
    const transport = { ...test('ORDER-WITHIN-DUE', 'fail'), meta: { rule: 'ORDER-WITHIN-DUE', transport: 'reset' } };
    const errored = collectRules([getRule('ORDER-WITHIN-DUE')], [transport]);
    const e = obligationsOf({ rules: errored }).entries.find((x) => x.id === 'create.field.order_id#within-due')!;
    expect(e).toMatchObject({ status: 'not_tried', kind: 'not_proven' });
    expect(e.why).toMatch(/could not be checked \(ERROR\)/);
  });

  it('each side counts its own obligations (a rule never passes what its catalogue entry says it is not trying); the totals add up', () => {
    const { totals, entries } = obligationsOf({ rules: [] });
    const ids = (side?: 'receiver' | 'client') => obligationsOf({ rules: [], ...(side ? { side } : {}) }).entries.map((e) => e.id);
    expect(ids()).toContain('errors.retry.create#throttled-retry-served');
    expect(ids()).toContain('signature.hmac-over-raw-body#service-signs');
    expect(ids()).not.toContain('errors.retry.create#same-key');
    expect(ids()).not.toContain('signature.hmac-over-raw-body#receiver-strict');
    expect(ids('client')).toEqual(expect.arrayContaining(['errors.retry.create#same-key']));
    expect(ids('client')).not.toContain('errors.retry.create#throttled-retry-served');
    expect(ids('receiver')).not.toContain('signature.hmac-over-raw-body#service-signs');
    const c = claim([test('LIMIT-THROTTLED-CREATE-RETRY', 'pass')]);
    expect(c.get('errors.retry.create#throttled-retry-served')!.status).toBe('passed');
    expect(c.has('errors.retry.create#same-key')).toBe(false);
    expect(totals.passed + totals.failed + totals.not_tried).toBe(totals.obligations);
    expect(totals.passed).toBe(0);
  });
});

describe('the catalogue: notTrying names obligations of the rule\'s own clauses', () => {
  it('every notTrying entry is an obligation of a clause the rule cites', () => {
    const wrong = (RULES as readonly Rule[]).flatMap((r) => (r.notTrying ?? [])
      .filter((id) => !obligationsOfClauses(r.clauses).includes(id)).map((id) => `${r.id}: ${id}`));
    expect(wrong).toEqual([]);
  });
});

describe('report.json schema: the new fields are optional and typed', () => {
  const valid = ajv.compile(reportSchema);
  const base = {
    tool: { name: 'hps-conformance', version: '0' }, target: { base_url: 'http://x', embedded_reference: false }, run_id: 'r', seed: 1,
    runs: 1, started_at: '2026-01-01T00:00:00.000Z', finished_at: '2026-01-01T00:00:01.000Z', duration_ms: 1,
    selection: { areas: [], rules: [] },
    verdict: 'conformant', summary: { pass: 0, fail: 0, warn: 0, info: 0, skip: 0, error: 0, flaky: 0 },
    must: { total: 0, testable: 0, untestable: 0, ran: 0, passed: 0, failed: 0, skipped: 0 }, requests: 0, rules: [],
  };
  const obligations = {
    totals: { obligations: 1, passed: 0, failed: 0, not_tried: 1, untestable: 0 },
    entries: [{ id: 'a#b', clause: 'a', status: 'not_tried', rules: ['R'], kind: 'rule', why: 'w', needs: ['keys.live'] }],
  };

  it('a report without them (an older one) and a report with them are valid; an unknown status or kind is not', () => {
    expect(valid(base)).toBe(true);
    expect(valid({ ...base, obligations }), JSON.stringify(valid.errors)).toBe(true);
    expect(valid({ ...base, obligations: { ...obligations, entries: [{ ...obligations.entries[0], status: 'maybe' }] } })).toBe(false);
    expect(valid({ ...base, obligations: { ...obligations, entries: [{ ...obligations.entries[0], kind: 'whatever' }] } })).toBe(false);
    expect(valid({ ...base, obligations: { ...obligations, extra: 1 } })).toBe(false);
  });
});
