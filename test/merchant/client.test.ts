/**
 * The client command: the judge on hand-made request sequences (edges exact: Retry-After is
 * waited or not by 1 ms), the seeded schedule, and the example client clean and with each
 * planted fault, through the real chaos server and reference server.
 */
import { describe, expect, it } from 'vitest';
import { rulesOfSide } from '../../catalogue/index.ts';
import { classify } from '../../client-cert/chaos-server.ts';
import { judgeClient } from '../../client-cert/judge.ts';
import { clientMutation, runExampleClient } from '../../client-cert/mutation.ts';
import type { RecordedRequest } from '../../client-cert/recorder.ts';
import { FailureSchedule, INJECTED_RETRY_AFTER_S } from '../../client-cert/schedule.ts';
import { CLIENT_FAULTS } from '../../client-cert/faults.ts';

let seq = 0;
function rec(p: Partial<RecordedRequest>): RecordedRequest {
  seq++;
  return { seq, at: new Date().toISOString(), arrivedMs: seq * 10, method: 'POST', path: '/v1/payments', kind: 'create', identity: 'create A', body: '{"amount":"1.00"}', idempotencyKey: 'k1', ...p };
}
const statusOf = (log: RecordedRequest[], id: string) => {
  const j = judgeClient(log).get(id as never)!;
  return j.checks.some((c) => c.state === 'fail') ? 'fail' : j.checks.some((c) => c.state === 'pass') ? 'pass' : 'skip';
};

describe('client judge', () => {
  it('judges every exercisable client rule', () => {
    const judged = new Set(judgeClient([]).keys());
    expect(rulesOfSide('client').filter((r) => !r.untestable && !judged.has(r.id)).map((r) => r.id)).toEqual([]);
    for (const f of Object.values(CLIENT_FAULTS)) for (const id of f.breaks) expect(judged.has(id)).toBe(true);
  });

  it('measures the Retry-After wait at its edge', () => {
    const edge = INJECTED_RETRY_AFTER_S * 1000 - 10;
    const first = rec({ injected: '429', status: 429, arrivedMs: 100, answeredMs: 101 });
    expect(statusOf([first, rec({ arrivedMs: 101 + edge })], 'CLIENT-HONOUR-RETRY-AFTER')).toBe('pass');
    expect(statusOf([first, rec({ arrivedMs: 101 + edge - 1 })], 'CLIENT-HONOUR-RETRY-AFTER')).toBe('fail');
  });

  it('fails a retry with another key, a missing retry, a retried cancel and a re-sent 400; skips what was not injected', () => {
    const reset = rec({ injected: 'reset-after-create', paymentId: 'pay_1', upstreamStatus: 201 });
    const retry = rec({ idempotencyKey: 'k2', status: 201, upstreamStatus: 201, paymentId: 'pay_2' });
    expect(statusOf([reset, retry], 'CLIENT-SAME-IDEMPOTENCY-KEY')).toBe('fail');
    expect(statusOf([reset, retry], 'CLIENT-NO-DUPLICATE-PAYMENT')).toBe('fail');
    expect(statusOf([reset, { ...retry, idempotencyKey: 'k1', paymentId: 'pay_1' }], 'CLIENT-NO-DUPLICATE-PAYMENT')).toBe('pass');
    expect(statusOf([rec({ identity: 'create B', injected: '502', status: 502 })], 'RECV-CLIENT-RETRY')).toBe('fail');
    const cancel = { kind: 'cancel' as const, identity: 'POST /v1/payments/p/cancel', path: '/v1/payments/p/cancel', body: '' };
    expect(statusOf([rec({ ...cancel, injected: '503', status: 503 }), rec(cancel)], 'CLIENT-CANCEL-RETRY-ONLY-429')).toBe('fail');
    expect(statusOf([rec({ ...cancel, injected: '503', status: 503 })], 'CLIENT-CANCEL-RETRY-ONLY-429')).toBe('pass');
    const c400 = rec({ identity: 'create C', body: 'c', injected: '400', status: 400, errorCode: 'invalid_request' });
    expect(statusOf([c400, rec({ identity: 'create C', body: 'c' })], 'CLIENT-NO-RETRY-4XX')).toBe('fail');
    expect(statusOf([c400], 'CLIENT-NO-RETRY-4XX')).toBe('pass');
    expect(statusOf([], 'RECV-CLIENT-RETRY')).toBe('skip');
  });
});

describe('failure schedule', () => {
  it('is seeded, and the first create always meets the reset after creation', () => {
    for (const seed of [0, 1, 2, 99]) {
      const a = new FailureSchedule(seed);
      const b = new FailureSchedule(seed);
      expect(a.next('create')).toBe('reset-after-create');
      b.next('create');
      for (let i = 0; i < 6; i++) expect(a.next('create')).toBe(b.next('create'));
      expect(a.next('create')).toBeUndefined();
      expect(a.next('other')).toBeUndefined();
    }
    expect(classify('POST', '/v1/payments')).toBe('create');
    expect(classify('POST', '/v1/payments/pay_1/cancel')).toBe('cancel');
    expect(classify('GET', '/v1/payments/pay_1')).toBe('read');
    expect(classify('POST', '/v1/test_helpers/payments/pay_1/succeed')).toBe('other');
  });
});

describe('client command with the example client', () => {
  it('finds the clean example client conformant, every exercisable rule run', async () => {
    const report = await runExampleClient(undefined, 4);
    expect(report.side).toBe('client');
    expect(report.verdict).toBe('conformant');
    for (const r of report.rules) expect(r.status, `${r.id}: ${r.reason}`).toBe(r.level === 'OBSERVE' ? 'info' : 'pass');
  }, 60_000);

  it('catches every planted client fault by a rule it declares', async () => {
    const m = await clientMutation(8);
    expect(m.cleanFindings).toEqual([]);
    expect(m.results.filter((r) => !r.caught).map((r) => r.fault)).toEqual([]);
  }, 120_000);
});
