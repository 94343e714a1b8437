/** The pieces of the load scripts that need no server: flags, mixes, amounts, percentiles, thresholds, observations. */
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../harness/errors.ts';
import { redactText } from '../../harness/redact.ts';
import { Observations } from '../../load/observe.ts';
import { LIMITS, parseLoadOptions, THRESHOLD_DEFAULTS } from '../../load/options.ts';
import { amountFor, createRequest, MIXES, pickOp, SCENARIO_NAMES } from '../../load/scenarios.ts';
import { percentile, summarise } from '../../load/stats.ts';
import { evaluateThresholds } from '../../load/thresholds.ts';
import { spread } from '../../load/after.ts';

describe('load flags', () => {
  it('defaults: mixed, 10 s, 10 connections, no rate, the hard request cap, default thresholds', () => {
    expect(parseLoadOptions({})).toEqual({
      profilePath: undefined,
      scenario: 'mixed',
      durationS: 10,
      connections: 10,
      rate: undefined,
      maxRequests: LIMITS.maxRequestsCap,
      reportDir: undefined,
      thresholds: { ...THRESHOLD_DEFAULTS },
    });
  });

  it('bounds every flag (usage error, exit 2)', () => {
    for (const o of [{ duration: '301' }, { connections: '0' }, { rate: '-1' }, { 'max-requests': '1000001' }, { 'max-error-rate': '1.01' }, { scenario: 'x' }]) {
      let err: unknown;
      try {
        parseLoadOptions(o);
      } catch (e) {
        err = e;
      }
      expect(err, JSON.stringify(o)).toBeInstanceOf(HarnessError);
      expect((err as HarnessError).exitCode).toBe(2);
    }
    expect(parseLoadOptions({ 'max-p99-ms': '0', 'min-rps': '1e9', 'max-error-rate': '0' }).thresholds).toEqual({ maxP99Ms: 0, minRps: 1e9, maxErrorRate: 0 });
  });
});

describe('scenarios', () => {
  it('mixes sum to 1 and pickOp follows them', () => {
    for (const s of SCENARIO_NAMES) expect(Object.values(MIXES[s]).reduce((a, b) => a + b, 0)).toBeCloseTo(1);
    expect(pickOp('mixed', 0.1)).toBe('create');
    expect(pickOp('mixed', 0.5)).toBe('read');
    expect(pickOp('mixed', 0.95)).toBe('list');
    expect(pickOp('read', 0.999)).toBe('read');
  });

  it('amounts are valid create amounts in several forms; creates are marked and keyed every other one', () => {
    const amounts = Array.from({ length: 200 }, (_, i) => amountFor(i));
    for (const a of amounts) expect(a).toMatch(/^[1-9][0-9]*(\.[0-9]{1,2})?$/);
    expect(amounts.some((a) => !a.includes('.'))).toBe(true);
    expect(amounts.some((a) => /\.\d$/.test(a))).toBe(true);
    const c = createRequest('ldrun', 4);
    expect(JSON.parse(c.body)).toMatchObject({ amount: c.amount, external_id: 'ldrun-ld-4', metadata: { conformance_run: 'ldrun' } });
    expect(c.idempotencyKey).toBe('ldrun-ld-idem-4');
    expect(createRequest('ldrun', 5).idempotencyKey).toBeUndefined();
    expect(createRequest('ldrun', 4, 'pool').idempotencyKey).not.toBe(c.idempotencyKey);
  });
});

describe('figures', () => {
  it('nearest-rank percentiles', () => {
    const v = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(Float64Array.from(v), 50)).toBe(50);
    expect(percentile(Float64Array.from(v), 99)).toBe(99);
    expect(percentile(Float64Array.from(v), 100)).toBe(100);
    expect(summarise([3, 1, 2])).toMatchObject({ count: 3, p50: 2, max: 3, min: 1, mean: 2 });
    expect(summarise([])).toMatchObject({ count: 0, p99: 0 });
    expect(spread([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 5)).toEqual([1, 3, 5, 7, 9]);
  });

  it('thresholds: p99, min rps (0 = off), error rate', () => {
    const t = evaluateThresholds({ maxP99Ms: 250, minRps: 0, maxErrorRate: 0.01 }, { p99Ms: 12, responses: 10, meanRps: 100, errorRate: 0 });
    expect(t.map((x) => x.status)).toEqual(['pass', 'off', 'pass']);
    const f = evaluateThresholds({ maxP99Ms: 0, minRps: 1e9, maxErrorRate: 0.01 }, { p99Ms: 12, responses: 10, meanRps: 100, errorRate: 0.02 });
    expect(f.map((x) => x.status)).toEqual(['fail', 'fail', 'fail']);
    expect(evaluateThresholds({ maxP99Ms: 250, minRps: 0, maxErrorRate: 1 }, { p99Ms: 0, responses: 0, meanRps: 0, errorRate: 0 })[0]!.status).toBe('fail');
  });
});

describe('observations', () => {
  const payment = (over: Record<string, unknown>) =>
    JSON.stringify({ id: 'pay_1', object: 'payment', livemode: false, status: 'PENDING', amount: '10.50', currency: 'BDT', external_id: 'r-ld-1', created_at: '2024-01-01T00:00:00Z', ...over });

  it('checks every create 201: schema, PENDING, amount by decimal value, external_id', () => {
    const obs = new Observations();
    const req = { ...createRequest('r', 1), amount: '10.5', externalId: 'r-ld-1' };
    obs.observe({ op: 'create', create: req }, 201, payment({}));
    expect(obs.create.bad.count).toBe(0);
    expect(obs.created).toHaveLength(1);
    obs.observe({ op: 'create', create: req }, 201, payment({ status: 'PAID' }));
    obs.observe({ op: 'create', create: req }, 201, payment({ amount: '10.51' }));
    obs.observe({ op: 'create', create: req }, 201, payment({ amount: 10.5 }));
    obs.observe({ op: 'create', create: req }, 201, 'not json');
    expect(obs.create.bad.count).toBe(4);
    obs.observe({ op: 'create', create: req }, 500, '{"error":{"code":"internal_error"}}');
    expect(obs.fiveXX.create).toBe(1);
    expect(obs.errorCodes.create.get('500 internal_error')).toBe(1);
  });

  it('a replay must answer 201 with the original id; a 404 on a read of our own payment is a failure', () => {
    const obs = new Observations();
    const orig = { id: 'pay_1', amount: '10.50', externalId: 'r-ld-1', key: 'k', body: '{}' };
    obs.observe({ op: 'create', replayOf: orig }, 201, payment({}));
    obs.observe({ op: 'create', replayOf: orig }, 201, payment({ id: 'pay_2' }));
    obs.observe({ op: 'create', replayOf: orig }, 409, '{"error":{"code":"idempotency_conflict"}}');
    obs.observe({ op: 'create', replayOf: orig }, 429, '{}');
    expect(obs.replay.sameId).toBe(1);
    expect(obs.replay.bad.count).toBe(2);
    obs.observe({ op: 'read', read: { id: 'pay_1', amount: '10.5', externalId: 'x' } }, 200, payment({}));
    obs.observe({ op: 'read', read: { id: 'pay_1', amount: '10.5', externalId: 'x' } }, 404, '{"error":{"code":"payment_not_found"}}');
    expect(obs.read.bad.count).toBe(1);
    expect(obs.read.bad.items[0]).toContain('404');
  });

  it('examples are redactable text', () => {
    expect(redactText('Bearer pt_test_sk_abcdefgh12345')).not.toMatch(/abcdefgh/);
  });
});
