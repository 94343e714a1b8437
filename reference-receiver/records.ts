/**
 * What the reference receiver remembers, which is exactly what the inspection contract shows
 * (docs/merchant-side.md): events processed (by id, with a count), payments fulfilled (with a
 * count) and the status held per Payment. Bounded: the oldest entries are dropped past MAX_ENTRIES.
 */
import type { ReceiverFaultName } from './faults.ts';

const MAX_ENTRIES = 10_000;

/** Statuses never move back: PENDING < PAID | CANCELLED < REVERSED (the spec's transitions). */
const RANK: Record<string, number> = { PENDING: 0, PAID: 1, CANCELLED: 1, REVERSED: 2 };

export const PAYMENT_EVENTS: ReadonlySet<string> = new Set(['payment.created', 'payment.paid', 'payment.cancelled', 'payment.reversed']);

export interface Inspection {
  events: Record<string, number>;
  fulfilled: Record<string, number>;
  payments: Record<string, string>;
}

export class ReceiverRecords {
  private readonly events = new Map<string, number>();
  private readonly fulfilled = new Map<string, number>();
  private readonly payments = new Map<string, string>();

  constructor(private readonly faults: ReadonlySet<ReceiverFaultName>) {}

  seen(eventId: string): boolean {
    return this.events.has(eventId);
  }

  /** Applies one verified (or, under a fault, unverified) event; unknown types are ignored. */
  apply(event: { id: string; type: string; data?: { object?: { id?: unknown; status?: unknown } } }): 'processed' | 'ignored' {
    if (!PAYMENT_EVENTS.has(event.type)) return 'ignored';
    bump(this.events, event.id);
    const payment = event.data?.object;
    if (typeof payment?.id !== 'string' || typeof payment.status !== 'string') return 'processed';
    this.updateStatus(payment.id, payment.status);
    const fulfilOn = this.faults.has('fulfils-on-payment-created') ? ['payment.paid', 'payment.created'] : ['payment.paid'];
    // A payment.paid fulfils only a Payment that is PAID (its snapshot, or its current status in fetch mode).
    if (fulfilOn.includes(event.type) && (event.type !== 'payment.paid' || payment.status === 'PAID')) this.fulfil(payment.id);
    return 'processed';
  }

  /** Fulfils once per Payment (a second payment.paid for it ships nothing). */
  fulfil(paymentId: string): void {
    if (!this.fulfilled.has(paymentId)) bump(this.fulfilled, paymentId);
  }

  /** Under the fault `stores-status-before-verifying` only: the status an unverified event claims, stored. */
  storeClaimedStatus(event: { data?: { object?: { id?: unknown; status?: unknown } } } | null): void {
    const payment = event?.data?.object;
    if (typeof payment?.id === 'string' && typeof payment.status === 'string') this.updateStatus(payment.id, payment.status);
  }

  private updateStatus(paymentId: string, status: string): void {
    const held = this.payments.get(paymentId);
    // The late payment.created of a PAID Payment must not set it back to PENDING.
    const regresses = held !== undefined && (RANK[status] ?? 0) < (RANK[held] ?? 0);
    if (regresses && !this.faults.has('last-event-wins')) return;
    set(this.payments, paymentId, status);
  }

  inspection(): Inspection {
    return { events: Object.fromEntries(this.events), fulfilled: Object.fromEntries(this.fulfilled), payments: Object.fromEntries(this.payments) };
  }
}

function bump(map: Map<string, number>, key: string): void {
  set(map, key, (map.get(key) ?? 0) + 1);
}

function set<V>(map: Map<string, V>, key: string, value: V): void {
  if (!map.has(key) && map.size >= MAX_ENTRIES) map.delete(map.keys().next().value!);
  map.set(key, value);
}
