import { describe, expect, it } from 'vitest';
import { ALT_DECISIONS, REFERENCE_DECISIONS } from '../../references/service/decisions.ts';
import { applyTransition, paymentJson, toPaymentResource } from '../../references/service/payments.ts';
import type { PaymentRecord } from '../../references/service/types.ts';

function payment(): PaymentRecord {
  return {
    id: 'pay_00000001abcdefghijklmnop', businessId: 'biz_1', env: 'test', status: 'PENDING', amount: '10.00', amountCents: 1000n,
    description: null, merchantReference: null, externalId: 'ext-1', metadata: { a: '1' }, allowedMethods: undefined, allowedChannels: undefined,
    returnUrl: null, checkoutUrl: 'https://checkout.hps-reference.test/c/pay_00000001abcdefghijklmnop', customerId: null, orderId: null,
    createdAt: Date.UTC(2026, 0, 1), paidAt: null, cancelledAt: null,
  };
}

const fresh = (p: PaymentRecord, d = REFERENCE_DECISIONS): string => JSON.stringify(toPaymentResource(p, d));

describe('paymentJson: the kept JSON of a Payment', () => {
  it('is the bytes toPaymentResource serialises to, and is reused while nothing changes', () => {
    const p = payment();
    const first = paymentJson(p);
    expect(first.toString('utf8')).toBe(fresh(p));
    expect(paymentJson(p)).toBe(first);
  });

  it('is made again after every state change, whichever code path made it', () => {
    const p = payment();
    const pending = paymentJson(p);
    applyTransition(p, 'succeed', Date.UTC(2026, 0, 2));
    expect(paymentJson(p).toString('utf8')).toBe(fresh(p));
    expect(JSON.parse(paymentJson(p).toString('utf8')).status).toBe('PAID');
    p.status = 'REVERSED'; // as the control API's reversal writes it
    expect(JSON.parse(paymentJson(p).toString('utf8')).status).toBe('REVERSED');
    p.paidAt = null; // a planted fault's write
    expect(paymentJson(p).toString('utf8')).toBe(fresh(p));
    expect(paymentJson(p)).not.toBe(pending);
  });

  it('follows the decisions it is asked for', () => {
    const p = payment();
    applyTransition(p, 'cancel', Date.UTC(2026, 0, 3));
    expect(paymentJson(p, REFERENCE_DECISIONS).toString('utf8')).toBe(fresh(p, REFERENCE_DECISIONS));
    expect(paymentJson(p, ALT_DECISIONS).toString('utf8')).toBe(fresh(p, ALT_DECISIONS));
    expect(paymentJson(p, ALT_DECISIONS).toString('utf8')).not.toBe(fresh(p, REFERENCE_DECISIONS));
  });
});
