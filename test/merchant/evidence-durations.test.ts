/**
 * No negative duration in any evidence text. The phrase builder refuses a negative span, and the
 * client judge says what happened when a re-send started while an earlier request still hung
 * ("#2 was sent while #1 was still unanswered (…)"), where it used to print "#2 came -1568 ms later".
 */
import { describe, expect, it } from 'vitest';
import { durationWords } from '../../core/duration-words.ts';
import { judgeClient } from '../../merchant/client/judge.ts';
import type { RecordedRequest } from '../../merchant/client/recorder.ts';

/** A duration phrase with a minus sign: "-1568 ms", "- 2.5 s". */
const NEGATIVE_DURATION = /-\s*\d+(\.\d+)?\s*(ms|s)\b/;

function create(p: Partial<RecordedRequest> & Pick<RecordedRequest, 'seq' | 'arrivedMs'>): RecordedRequest {
  return {
    at: new Date(0).toISOString(), method: 'POST', path: '/v1/payments', kind: 'create', identity: `create key=${p.idempotencyKey ?? 'k1'}`,
    body: '{"amount":"1.00"}', idempotencyKey: 'k1', ...p,
  };
}

/** Every message and note of every check of every rule the judge returns. */
function texts(log: RecordedRequest[]): string[] {
  return [...judgeClient(log).values()].flatMap((j) => j.checks.flatMap((c) => [
    c.name, c.message ?? '', ...(c.evidence ?? []).map((e) => ('message' in e ? String(e.message) : '')),
  ]));
}

describe('durations in evidence words', () => {
  it('the phrase builder refuses a negative or non-finite span', () => {
    expect(durationWords(0)).toBe('0 ms');
    expect(durationWords(1567.6)).toBe('1568 ms');
    expect(() => durationWords(-1568)).toThrow(RangeError);
    expect(() => durationWords(Number.NaN)).toThrow(RangeError);
    expect(() => durationWords(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it('a create under another key sent while the failed one still hung: said so, no negative span', () => {
    // #1 met the injected time-out: held 5 s, answered (dropped) at 5100; #2 came at 3532, while #1 still hung.
    const hung = create({ seq: 1, arrivedMs: 100, answeredMs: 5100, injected: 'timeout', status: undefined });
    const other = create({ seq: 2, arrivedMs: 3532, answeredMs: 3540, idempotencyKey: 'k2', status: 201, paymentId: 'pay_2' });
    const all = texts([hung, other]);
    expect(all.filter((t) => NEGATIVE_DURATION.test(t))).toEqual([]);
    const message = judgeClient([hung, other]).get('CLIENT-RETRY-TRANSIENT')!.checks[0]!.message!;
    expect(message).toContain('#2 was sent while #1 was still unanswered (3432 ms after #1 was sent) with the same body under ' +
      'another key (k2)');
  });

  it('a read re-sent after another operation, once the failed one was answered: the span from that answer', () => {
    const read = { method: 'GET', path: '/v1/payments/pay_1', kind: 'read' as const, body: '', idempotencyKey: undefined };
    const failed = create({
      ...read, seq: 1, arrivedMs: 100, answeredMs: 150, identity: 'GET /v1/payments/pay_1 @1', injected: '503', status: 503,
    });
    const between = create({ seq: 2, arrivedMs: 160, answeredMs: 170, idempotencyKey: 'k9', identity: 'create key=k9', status: 201 });
    const later = create({ ...read, seq: 3, arrivedMs: 400, answeredMs: 410, identity: 'GET /v1/payments/pay_1 @3', status: 200 });
    const message = judgeClient([failed, between, later]).get('CLIENT-RETRY-TRANSIENT')!.checks[0]!.message!;
    expect(message).toContain('#3 was sent 250 ms after #1 was answered on the same path after #2 POST /v1/payments');
  });

  it('a same-key retry sent before its 429 was answered fails Retry-After, in words, with no negative span', () => {
    const limited = create({ seq: 1, arrivedMs: 100, answeredMs: 900, injected: '429', status: 429, retryAfterS: 2 });
    const early = create({ seq: 2, arrivedMs: 500, answeredMs: 510, status: 201 });
    const j = judgeClient([limited, early]).get('CLIENT-HONOUR-RETRY-AFTER')!;
    expect(j.checks[0]!.state).toBe('fail');
    expect(j.checks[0]!.message).toContain('#2 was sent while #1 was still unanswered (400 ms after #1 was sent)');
    expect(texts([limited, early]).filter((t) => NEGATIVE_DURATION.test(t))).toEqual([]);
  });
});
