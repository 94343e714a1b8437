/**
 * The comparison behind RESP-PAYMENT-VIEWS-AGREE (service/harness/worker/payment-views.ts): what must agree
 * between two views of one Payment, and what time may move (docs/rulings.md).
 */
import { describe, expect, it } from 'vitest';
import { PaymentViews, type PaymentView } from '../../service/harness/worker/payment-views.ts';

const BASE = {
  id: 'pay_1', object: 'payment', livemode: false, status: 'PENDING', amount: '10.50', currency: 'BDT',
  description: 'Order 42', merchant_reference: 'INV-42', external_id: 'ext-1', metadata: { a: '1', b: '2' },
  allowed_methods: ['BKASH', 'NAGAD'], return_url: 'https://shop.example/done', checkout_url: 'https://pay.example/c/1',
  created_at: '2026-01-01T00:00:00.123Z', paid_at: null, cancelled_at: null,
};

function view(
  over: Record<string, unknown>,
  at: { sent: number; answered: number },
  opts: { where?: string; snapshot?: boolean } = {},
): PaymentView {
  return {
    payment: { ...BASE, ...over },
    where: opts.where ?? 'getPayment',
    sentAt: at.sent,
    answeredAt: at.answered,
    snapshot: opts.snapshot ?? false,
  };
}

/** Views shown one after the other: each asked for after the previous one was answered. */
function inTurn(...payments: Array<Record<string, unknown>>): Array<ReturnType<PaymentViews['observe']>> {
  const views = new PaymentViews();
  return payments.map((p, i) => views.observe(view(p, { sent: 10 * i, answered: 10 * i + 5 })));
}

describe('PaymentViews', () => {
  it('compares nothing on the first view of an id, and finds nothing when views agree', () => {
    const [first, second] = inTurn({}, {});
    expect(first).toBeUndefined();
    expect(second).toEqual([]);
  });

  it('finds a field fixed at creation that differs in a later view', () => {
    for (const [field, value] of [['description', null], ['merchant_reference', 'INV-43'], ['external_id', null], ['amount', '10.05'], ['metadata', { a: '1' }], ['livemode', true], ['return_url', null], ['allowed_methods', ['BKASH']], ['created_at', '2026-01-01T00:00:00Z']] as const) {
      const diffs = inTurn({}, { [field]: value })[1]!;
      expect(diffs.map((d) => d.message).join(), field).toContain(`${field} is`);
    }
  });

  it('lets one value spelt two ways agree: amounts as decimals, instants, sets, absent and null', () => {
    const { description: _d, ...withoutDescription } = BASE;
    const views = new PaymentViews();
    views.observe(view({ description: null }, { sent: 0, answered: 1 }));
    expect(views.observe({ ...view({}, { sent: 2, answered: 3 }), payment: withoutDescription })).toEqual([]);
    expect(inTurn(
      {},
      { amount: '10.5', created_at: '2026-01-01T06:00:00.123+06:00', allowed_methods: ['NAGAD', 'BKASH'], metadata: { b: '2', a: '1' } },
    )[1]).toEqual([]);
  });

  it('lets the status move on along the transitions, and paid_at / cancelled_at go from null to their instant', () => {
    const paid = { status: 'PAID', paid_at: '2026-01-01T00:01:00Z' };
    expect(inTurn({}, paid, { ...paid, status: 'REVERSED' }).slice(1)).toEqual([[], []]);
    expect(inTurn({}, { status: 'CANCELLED', cancelled_at: '2026-01-01T00:02:00Z', checkout_url: null }).slice(1)).toEqual([[]]);
  });

  it('finds a status that goes back, and an instant that changes once set', () => {
    const back = inTurn({ status: 'CANCELLED', cancelled_at: '2026-01-01T00:02:00Z' }, { status: 'PENDING', cancelled_at: null })[1]!;
    expect(back.map((d) => d.message).join()).toContain('CANCELLED never becomes PENDING');
    const moved = inTurn({ status: 'PAID', paid_at: '2026-01-01T00:01:00Z' }, { status: 'PAID', paid_at: '2026-01-01T00:03:00Z' })[1]!;
    expect(moved.map((d) => d.message).join()).toContain('paid_at is');
  });

  it('does not judge the order of two views in flight together, nor a create answer (a replay may be a snapshot)', () => {
    const views = new PaymentViews();
    views.observe(view({ status: 'CANCELLED' }, { sent: 0, answered: 50 }));
    expect(views.observe(view({ status: 'PENDING' }, { sent: 40, answered: 60 }))).toEqual([]);
    expect(views.observe(view(
      { status: 'PENDING' },
      { sent: 100, answered: 110 },
      { where: 'createPayment', snapshot: true },
    ))).toEqual([]);
    expect(views.observe(view({ status: 'PENDING' }, { sent: 200, answered: 210 }))!.length).toBe(1);
  });

  it('does not judge a status the spec does not list, and forgets everything on clear()', () => {
    expect(inTurn({ status: 'PAID' }, { status: 'DISPUTED' })[1]).toEqual([]);
    const views = new PaymentViews();
    views.observe(view({}, { sent: 0, answered: 1 }));
    views.clear();
    expect(views.observe(view({ description: 'other' }, { sent: 2, answered: 3 }))).toBeUndefined();
  });
});
