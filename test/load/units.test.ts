/** The pieces of the load scripts that need no server: flags, mixes, amounts, percentiles, thresholds, observations. */
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../core/errors.ts';
import { redactText } from '../../core/redact.ts';
import { Observations } from '../../load/observe.ts';
import { LIMITS, parseLoadOptions, THRESHOLD_DEFAULTS } from '../../load/options.ts';
import { amountFor, createRequest, MIXES, parseMix, pickOp, SCENARIO_NAMES } from '../../load/scenarios.ts';
import { arrivalClock, seededRandom } from '../../load/arrivals.ts';
import { buildFigures, type RawParts } from '../../load/figures.ts';
import { encode, mergeEncoded, newHistogram, percentilesOf, recordMs } from '../../load/histogram.ts';
import { defaultWorkers, splitPlan } from '../../load/workers.ts';
import { availableParallelism } from 'node:os';
import { percentile, summarise } from '../perf/latency-stats.ts';
import { evaluateThresholds } from '../../load/thresholds.ts';
import { spread } from '../../load/after.ts';

describe('load flags', () => {
  it('defaults: mixed, 10 s, 10 connections, no rate, the hard request cap, default thresholds', () => {
    expect(parseLoadOptions({})).toEqual({
      profilePath: undefined,
      scenario: 'mixed',
      mix: MIXES.mixed,
      arrivals: 'constant',
      warmupS: LIMITS.warmupDefault,
      workers: defaultWorkers(),
      durationS: 10,
      connections: 10,
      maxRequests: LIMITS.maxRequestsCap,
      honourRetryAfter: false,
      intervalS: 1,
      reportDir: undefined,
      thresholds: { ...THRESHOLD_DEFAULTS, allowShort: false },
    });
    expect(defaultWorkers()).toBe(Math.max(1, availableParallelism() - 1));
  });

  it('bounds every flag (usage error, exit 2)', () => {
    for (const o of [
      { duration: '301' },
      { connections: '0' },
      { rate: '-1' },
      { workers: '0' },
      { warmup: '61' },
      { arrivals: 'burst', rate: '1' },
      { 'max-requests': '1000001' },
      { 'max-error-rate': '1.01' },
      { scenario: 'x' },
    ]) {
      let err: unknown;
      try {
        parseLoadOptions(o);
      } catch (e) {
        err = e;
      }
      expect(err, JSON.stringify(o)).toBeInstanceOf(HarnessError);
      expect((err as HarnessError).exitCode).toBe(2);
    }
    expect(parseLoadOptions({
      'max-p99-ms': '0',
      'min-rps': '1e9',
      'max-error-rate': '0',
    }).thresholds).toEqual({ maxP99Ms: 0, minRps: 1e9, maxErrorRate: 0, allowShort: false });
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

  it('thresholds judge the figures: p99, min rps (0 = off), error rate, and the rate reached (unless --allow-short)', () => {
    const h = newHistogram();
    for (let i = 1; i <= 100; i += 1) recordMs(h, i / 10);
    const part = (over: Partial<RawParts> = {}): RawParts => ({
      histograms: { read: encode(h) },
      series: [encode(h)],
      statuses: { create: {}, read: { '200': 98, '429': 1, '500': 1 }, list: {} },
      errorKinds: { timeout: 1, connection: 0, other: 0 },
      due: 100,
      sentInWindow: 100,
      answered: 100,
      notSent: 0,
      warmupAnswered: 0,
      ...over,
    });
    const f = buildFigures([part()], 100, 1);
    expect(f.latency_ms.overall.p99).toBeCloseTo(9.9, 1);
    expect(f.errors).toMatchObject({ rate_limited_429: 1, by_status: { '500': 1 }, by_kind: { timeout: 1 } });
    expect(f.errors.rate).toBeCloseTo(3 / 101, 5);
    const ok = { maxP99Ms: 250, minRps: 0, maxErrorRate: 0.05, allowShort: false };
    expect(evaluateThresholds(ok, f).map((x) => x.status)).toEqual(['pass', 'off', 'pass', 'pass']);
    expect(evaluateThresholds(
      { maxP99Ms: 1, minRps: 1e9, maxErrorRate: 0.01, allowShort: false },
      f,
    ).map((x) => x.status)).toEqual(['fail', 'fail', 'fail', 'pass']);
    const short = buildFigures([part({ sentInWindow: 90, notSent: 10 })], 100, 1);
    expect(short.shortfall).toBeCloseTo(0.1, 5);
    expect(evaluateThresholds(ok, short)[3]).toMatchObject({ id: 'rate-reached', status: 'fail' });
    expect(evaluateThresholds({ ...ok, allowShort: true }, short)[3]).toMatchObject({ status: 'off' });
    expect(evaluateThresholds(ok, buildFigures([part({ sentInWindow: 99.5 })], 100, 1))[3]!.status).toBe('pass');
    expect(evaluateThresholds(ok, buildFigures([], null, 1))[0]!.status).toBe('fail');
  });
});

describe('histograms, arrivals, shares', () => {
  it('encoded histograms merge exactly: merged percentiles equal one histogram of all samples', () => {
    const random = seededRandom(7);
    const all = newHistogram();
    const parts = [newHistogram(), newHistogram(), newHistogram()];
    for (let i = 0; i < 30_000; i += 1) {
      const ms = -Math.log(1 - random()) * 20;
      recordMs(all, ms);
      recordMs(parts[i % 3]!, ms);
    }
    const merged = mergeEncoded(parts.map(encode));
    expect(encode(parts[0]!)).toMatch(/^HISTFAAA/);
    expect(merged.totalCount).toBe(30_000);
    expect(percentilesOf(merged)).toEqual(percentilesOf(all));
  });

  it('constant arrivals are evenly spaced over the union of connections; Poisson has the offered mean', () => {
    const dues = [0, 1, 2, 3].flatMap((c) => {
      const clock = arrivalClock('constant', 100, 4, c, 1000);
      return Array.from({ length: 25 }, () => clock.next());
    });
    dues.sort((a, b) => a - b);
    expect(dues[0]).toBe(1000);
    expect(dues.slice(1).every((d, i) => Math.abs(d - dues[i]! - 10) < 1e-9)).toBe(true);
    const p = arrivalClock('poisson', 100, 1, 0, 0, seededRandom(3));
    let last = 0;
    for (let i = 0; i < 10_000; i += 1) last = p.next();
    expect(last / 10_000 / 10).toBeGreaterThan(0.95);
    expect(last / 10_000 / 10).toBeLessThan(1.05);
  });

  it('workers split connections, rate and cap; shards take 1/N of the rate; --mix normalises', () => {
    const plan = {
      baseUrl: 'http://127.0.0.1:1',
      key: 'k',
      runId: 'r',
      tag: 's2',
      scenario: 'read' as const,
      mix: MIXES.read,
      connections: 5,
      rate: 100,
      arrivals: 'constant' as const,
      warmupS: 0,
      durationS: 1,
      timeoutMs: 1000,
      maxRequests: 11,
      pool: [],
    };
    const parts = splitPlan(plan, 2, 0);
    expect(parts.map((p) => [p.connections, p.rate, p.maxRequests, p.tag])).toEqual([[3, 60, 6, 's2w0'], [2, 40, 5, 's2w1']]);
    expect(splitPlan(plan, 9, 0)).toHaveLength(5);
    expect(parseLoadOptions({ rate: '300', shard: '2/3', 'run-id': 'r1' })).toMatchObject({ rate: 100, shard: { index: 2, count: 3 } });
    for (const bad of ['0/3', '4/3', '1/0', 'x']) expect(() => parseLoadOptions({ shard: bad, 'run-id': 'r1' })).toThrow(/--shard/);
    expect(() => parseLoadOptions({ shard: '1/3' })).toThrow(/--shard: needs --run-id ID/);
    expect(parseMix('create=1,read=3')).toEqual({ create: 0.25, read: 0.75, list: 0 });
    expect(parseMix('create=0')).toBeNull();
    expect(() => parseLoadOptions({ scenario: 'read', mix: 'read=1' })).toThrow(/--mix/);
    expect(() => parseLoadOptions({ arrivals: 'poisson' })).toThrow(/--arrivals/);
  });
});

describe('observations', () => {
  const payment = (over: Record<string, unknown>) =>
    JSON.stringify({
      id: 'pay_1',
      object: 'payment',
      livemode: false,
      status: 'PENDING',
      amount: '10.50',
      currency: 'BDT',
      external_id: 'r-ld-1',
      created_at: '2024-01-01T00:00:00Z',
      ...over,
    });

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

  it('a sampled read answering the bytes last found valid for that payment is valid; any other bytes are checked in full', () => {
    const obs = new Observations();
    const ref = { id: 'pay_1', amount: '10.5', externalId: 'x' };
    const good = Buffer.from(payment({}));
    for (let i = 0; i < 3; i += 1) obs.observe({ op: 'read', read: ref }, 200, Buffer.from(good));
    expect(obs.read).toMatchObject({ ok: 3, sampled: 3 });
    expect(obs.read.bad.count).toBe(0);
    // Other bytes, each wrong in its own way, are parsed and judged: the kept body proves nothing for them.
    obs.observe({ op: 'read', read: ref }, 200, Buffer.from(payment({ amount: '10.51' })));
    obs.observe({ op: 'read', read: ref }, 200, Buffer.from(payment({ id: 'pay_2' })));
    obs.observe({ op: 'read', read: ref }, 200, Buffer.from('not json'));
    obs.observe({ op: 'read', read: ref }, 200, payment({ status: 'NOPE', amount: 1 }));
    expect(obs.read.bad.count).toBe(4);
    // The same bytes for another payment (another id and amount) are judged against that payment.
    obs.observe({ op: 'read', read: { id: 'pay_2', amount: '10.5', externalId: 'y' } }, 200, good);
    expect(obs.read.bad.count).toBe(5);
    obs.observe({ op: 'read', read: ref }, 200, good.toString('utf8'));
    expect(obs.read.bad.count).toBe(5);
    expect(obs.read.sampled).toBe(9);
  });

  it('idempotency storm: the original (one id) or 409 idempotency_in_progress, nothing else', () => {
    const obs = new Observations();
    obs.observeStorm('r-1', [
      { status: 201, body: payment({}) },
      { status: 201, body: payment({}) },
      { status: 409, body: '{"error":{"code":"idempotency_in_progress"}}' },
    ]);
    expect(obs.storm).toMatchObject({ rounds: 1, original: 2, inProgress: 1 });
    expect(obs.storm.bad.count).toBe(0);
    obs.observeStorm('r-2', [
      { status: 201, body: payment({}) },
      { status: 201, body: payment({ id: 'pay_2' }) },
      { status: 409, body: '{"error":{"code":"idempotency_conflict"}}' },
    ]);
    expect(obs.storm.bad.count).toBe(2);
    const merged = Observations.merge([obs.snapshot(), obs.snapshot()]);
    expect(merged.storm).toMatchObject({ rounds: 4, original: 8, inProgress: 2 });
    expect(merged.storm.bad.count).toBe(4);
  });

  it('examples are redactable text', () => {
    expect(redactText('Bearer pt_test_sk_abcdefgh12345')).not.toMatch(/abcdefgh/);
  });
});
