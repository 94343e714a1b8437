/**
 * The load run's correctness checks (load/checks.ts): which checks a scenario gets, in what
 * order, and how each one judges its observations (pass / fail / skip, examples kept).
 */
import { describe, expect, it } from 'vitest';
import { buildChecks, type CheckInput } from '../../load/checks.ts';
import { Examples, Observations } from '../../load/observe.ts';

function input(over: Partial<CheckInput> = {}): CheckInput {
  return {
    scenario: 'mixed',
    ops: ['create', 'read', 'list'],
    obs: new Observations(),
    pool: { ok: true, pool: [] },
    ran: true,
    reread: null,
    duplicates: null,
    storm: null,
    internalErrors: [],
    ...over,
  };
}
const bad = (...lines: string[]) => {
  const e = new Examples();
  for (const l of lines) e.add(l);
  return e;
};
const statusOf = (x: CheckInput) => Object.fromEntries(buildChecks(x).map((c) => [c.id, c.status]));

describe('load checks', () => {
  it('a mixed run gets every per-operation check, in report order', () => {
    expect(buildChecks(input()).map((c) => c.id)).toEqual([
      'read-pool',
      'no-5xx',
      'create-201-payment',
      'idempotent-replay',
      'created-exist-after-run',
      'read-own-payments',
      'list-payment-list',
    ]);
  });

  it('a storm run gets only its own check besides the pool and 5xx; a list run none of the create checks', () => {
    expect(buildChecks(input({
      scenario: 'idempotency-storm',
      ops: ['create'],
      pool: null,
    })).map((c) => c.id)).toEqual(['no-5xx', 'idempotency-storm']);
    expect(buildChecks(input({ scenario: 'list', ops: ['list'], pool: null })).map((c) => c.id)).toEqual(['no-5xx', 'list-payment-list']);
  });

  it('when the load did not run, the per-operation checks skip and say why', () => {
    const checks = buildChecks(input({ ran: false, pool: { ok: false, reason: 'create answered 500' } }));
    expect(checks[0]).toMatchObject({ id: 'read-pool', status: 'fail', detail: 'create answered 500' });
    for (const c of checks.slice(2)) expect(c).toMatchObject({ status: 'skip', detail: 'the load did not run (see read-pool)' });
  });

  it('fails on any 5xx, naming where they came from', () => {
    const x = input();
    x.obs.fiveXX.after = 2;
    expect(buildChecks(x).find((c) => c.id === 'no-5xx')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('2 answers were 5xx'),
    });
  });

  it('fails a wrong create body with its examples, and creates that never answered 201', () => {
    const x = input();
    Object.assign(x.obs.create, { responses: 3, created: 3, checked: 3, bad: bad('a', 'b') });
    expect(buildChecks(x).find((c) => c.id === 'create-201-payment')).toMatchObject({ status: 'fail', examples: ['a', 'b'] });
    const y = input();
    Object.assign(y.obs.create, { responses: 4, created: 0 });
    expect(buildChecks(y).find((c) => c.id === 'create-201-payment')).toMatchObject({
      status: 'fail',
      detail: 'none of 4 creates answered 201',
    });
  });

  it('replays: skip when none answered, fail on a duplicate listed after the run, pass otherwise', () => {
    expect(statusOf(input())['idempotent-replay']).toBe('skip');
    const x = input({ duplicates: { checked: 2, bad: bad('ext_1 listed twice') } });
    Object.assign(x.obs.replay, { responses: 5, sameId: 5 });
    expect(buildChecks(x).find((c) => c.id === 'idempotent-replay')).toMatchObject({ status: 'fail', examples: ['ext_1 listed twice'] });
    x.duplicates = { checked: 2, bad: new Examples() };
    expect(statusOf(x)['idempotent-replay']).toBe('pass');
  });

  it('re-read after the run, reads and lists: fail on a bad one, pass when all are right', () => {
    const x = input({ reread: { checked: 1, bad: bad('pay_1 missing') } });
    x.obs.created.push({ id: 'pay_1', amount: '1.00', externalId: 'e' });
    Object.assign(x.obs.read, { responses: 2, ok: 1, bad: bad('404') });
    Object.assign(x.obs.list, { responses: 2, ok: 2 });
    expect(statusOf(x)).toMatchObject({ 'created-exist-after-run': 'fail', 'read-own-payments': 'fail', 'list-payment-list': 'pass' });
    x.reread = { checked: 1, bad: new Examples() };
    expect(statusOf(x)['created-exist-after-run']).toBe('pass');
  });

  it('no vacuous pass: reads, lists and the 5xx check with nothing answered are SKIP, never PASS', () => {
    const x = input({ pool: null });
    expect(statusOf(x)).toMatchObject({ 'no-5xx': 'skip', 'read-own-payments': 'skip', 'list-payment-list': 'skip' });
    // The pool's answers were judged for 5xx even when the load got none.
    expect(buildChecks(input()).find((c) => c.id === 'no-5xx')).toMatchObject({
      status: 'pass',
      detail: expect.stringContaining('nothing was answered during it'),
    });
    Object.assign(x.obs.read, { responses: 1, ok: 1 });
    Object.assign(x.obs.list, { responses: 1, ok: 1 });
    expect(statusOf(x)).toMatchObject({ 'no-5xx': 'pass', 'read-own-payments': 'pass', 'list-payment-list': 'pass' });
  });

  it('the storm check: skip with no round, fail on a wrong answer, pass on originals and 409s', () => {
    const x = input({ scenario: 'idempotency-storm', ops: ['create'] });
    expect(statusOf(x)['idempotency-storm']).toBe('skip');
    Object.assign(x.obs.storm, { rounds: 2, responses: 8, original: 3, inProgress: 5 });
    expect(statusOf(x)['idempotency-storm']).toBe('pass');
    x.obs.storm.bad.add('answered 500');
    expect(statusOf(x)['idempotency-storm']).toBe('fail');
  });

  it('an observer error is a failed check of its own', () => {
    expect(buildChecks(input({ internalErrors: ['boom'] })).at(-1)).toMatchObject({ id: 'observer', status: 'fail', examples: ['boom'] });
  });
});
