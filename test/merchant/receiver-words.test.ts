/**
 * The receiver judge's words stay true to the evidence: RECV-FULFIL-ON-PAID's positive control
 * counts only an acknowledged payment.paid, and when the one sent was answered late the reason says
 * so, with what the inspection lists, never "the inspection shows no fulfilment".
 */
import { describe, expect, it } from 'vitest';
import { judgeFulfilment, type Sent } from '../../merchant/receiver/judge.ts';
import { PROBES } from '../../merchant/receiver/probes.ts';

const control = PROBES.find((p) => p.fulfils)!;

function sent(paymentId: string, result: Partial<Sent['result']>): Sent {
  const exchange = { seq: 1, at: new Date(0).toISOString(), durationMs: 0, request: { method: 'POST', path: '/webhooks', headers: {} } };
  const outcome = { ms: 5, timedOut: false, exchange, ...result };
  return { rule: control.rule, name: control.name, expect: 'ack', paymentId, probe: control, result: outcome };
}

describe('RECV-FULFIL-ON-PAID without a positive control', () => {
  const inspection = { events: {}, fulfilled: { pay_a: 1, pay_b: 1, pay_c: 1 }, payments: {} };

  it('a payment.paid fulfilled but acknowledged late: says it was not acknowledged and what the inspection lists', () => {
    const late = sent('pay_a', { timedOut: true, ms: 10_000, transportError: 'no answer within 10 s' });
    const j = judgeFulfilment([late], inspection);
    expect(j.checks).toEqual([]);
    expect(j.skipReason).not.toMatch(/shows no fulfilment/);
    expect(j.skipReason).toBe('the verified payment.paid was not acknowledged (no answer within 10 s) (the inspection shows it ' +
      'fulfilled), and the positive control counts only an acknowledged delivery (the inspection lists 3 fulfilled Payments): ' +
      '"only from payment.paid" cannot be told from "never"');
  });

  it('an acknowledged payment.paid not fulfilled: says so, with the count the inspection lists', () => {
    const j = judgeFulfilment([sent('pay_z', { status: 200 })], inspection);
    expect(j.skipReason).toBe('the inspection shows no fulfilment of the acknowledged verified payment.paid (the inspection lists 3 ' +
      'fulfilled Payments): "only from payment.paid" cannot be told from "never"');
  });
});
