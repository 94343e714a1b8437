/**
 * seedPayments decision 'present': Payments that exist before any client call, in every
 * environment of businesses A and B, in every status, created over the past day. They
 * emit no event (they predate the endpoints) and reference no order (no due is consumed).
 */
import type { Decisions } from './decisions.ts';
import { formatCents } from './decimal.ts';
import { newPaymentId, randomString } from './ids.ts';
import { checkoutUrlFor, type PaymentStore } from './payments.ts';
import { COLLECTION_CHANNELS, PAYMENT_METHODS, type Environment, type PaymentRecord, type PaymentStatus } from './types.ts';

const STATUSES: readonly PaymentStatus[] = ['PAID', 'CANCELLED', 'PENDING', 'REVERSED'];
const PER_ENVIRONMENT = 7;
const HOUR_MS = 60 * 60 * 1000;

export function seedPayments(store: PaymentStore, businessIds: readonly string[], now: number, d: Decisions): void {
  for (const businessId of businessIds) {
    for (const env of ['test', 'live'] as const) {
      for (let i = 0; i < PER_ENVIRONMENT; i += 1) {
        const createdAt = now - 24 * HOUR_MS + i * HOUR_MS;
        store.insert(seededPayment(businessId, env, STATUSES[i % STATUSES.length] ?? 'PENDING', createdAt, i, d));
      }
    }
  }
}

function seededPayment(businessId: string, env: Environment, status: PaymentStatus, createdAt: number, i: number, d: Decisions): PaymentRecord {
  const id = newPaymentId(d.paymentIds);
  const cents = BigInt(1000 + 250 * i);
  return {
    id,
    businessId,
    env,
    status,
    amount: formatCents(cents),
    amountCents: cents,
    description: `Seeded payment ${i + 1}`,
    merchantReference: null,
    externalId: `seed-${randomString(12)}`,
    metadata: { seeded: 'true' },
    allowedMethods: d.omittedDefaults === 'all-values' ? [...PAYMENT_METHODS] : undefined,
    allowedChannels: d.omittedDefaults === 'all-values' ? [...COLLECTION_CHANNELS] : undefined,
    returnUrl: null,
    checkoutUrl: checkoutUrlFor(id, d),
    customerId: null,
    orderId: null,
    createdAt,
    paidAt: status === 'PAID' || status === 'REVERSED' ? createdAt + 60_000 : null,
    cancelledAt: status === 'CANCELLED' ? createdAt + 60_000 : null,
  };
}
