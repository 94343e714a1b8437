/**
 * What the reference receiver remembers, which is exactly what the inspection contract shows
 * (docs/merchant-side.md): events processed (by id, with a count), payments fulfilled (with a
 * count) and the status held per Payment. Bounded: the oldest entries are dropped past MAX_ENTRIES.
 * The planted faults here are overrides in the `faulty` table of the step they break (steps.ts).
 */
import { checkOf, type PlantingStep, type ReceiverFaultName, type Step } from './steps.ts';

const MAX_ENTRIES = 10_000;

/** Statuses never move back: PENDING < PAID | CANCELLED < REVERSED (the spec's transitions). */
const RANK: Record<string, number> = { PENDING: 0, PAID: 1, CANCELLED: 1, REVERSED: 2 };

export const PAYMENT_EVENTS: ReadonlySet<string> = new Set(['payment.created', 'payment.paid', 'payment.cancelled', 'payment.reversed']);

/** Whether an event fulfils its Payment. */
const FULFILS: Step<{ readonly type: string; readonly status: string }, boolean> = {
  name: 'a payment.paid fulfils a Payment that is PAID (its snapshot, or its current status in fetch mode)',
  check: ({ type, status }) => type === 'payment.paid' && status === 'PAID',
  faulty: {
    'fulfils-on-payment-created': {
      does: 'The order is fulfilled on payment.created (as soon as a Payment exists), not on payment.paid.',
      breaks: ['RECV-FULFIL-ON-PAID'],
      violates: ['delivery-rules.fulfil-on-verified-paid'],
      plant: (event, next) => event.type === 'payment.created' || next(event),
    },
  },
};

/** Whether an event's status replaces the one held. */
const MOVES: Step<{ readonly held: string | undefined; readonly status: string }, boolean> = {
  name: 'the held status moves forward only (a late payment.created of a PAID Payment does not set it back to PENDING)',
  check: ({ held, status }) => held === undefined || (RANK[status] ?? 0) >= (RANK[held] ?? 0),
  faulty: {
    'last-event-wins': {
      does: 'The stored status is whatever the latest-arriving event says, so a late payment.created sets a PAID Payment back to PENDING.',
      breaks: ['RECV-ARRIVAL-ORDER'],
      violates: ['delivery-rules.receivers-fetch-current'],
      plant: () => true,
    },
  },
};

export interface Inspection {
  events: Record<string, number>;
  fulfilled: Record<string, number>;
  payments: Record<string, string>;
}

export class ReceiverRecords {
  private readonly events = new Map<string, number>();
  /** When each event was first processed (ms since the epoch). */
  private readonly firstSeen = new Map<string, number>();
  private readonly fulfilled = new Map<string, number>();
  private readonly payments = new Map<string, string>();

  private readonly fulfils: (event: { type: string; status: string }) => boolean;
  private readonly moves: (change: { held: string | undefined; status: string }) => boolean;

  constructor(faults: ReadonlySet<ReceiverFaultName>) {
    this.fulfils = checkOf(FULFILS, faults);
    this.moves = checkOf(MOVES, faults);
  }

  seen(eventId: string): boolean {
    return this.events.has(eventId);
  }

  /** Whether an event of this Payment was handled (a status is held for it). */
  holdsPayment(paymentId: unknown): boolean {
    return typeof paymentId === 'string' && this.payments.has(paymentId);
  }

  firstSeenAt(eventId: string): number | undefined {
    return this.firstSeen.get(eventId);
  }

  /** Applies one verified (or, under a fault, unverified) event; unknown types are ignored. */
  apply(event: { id: string; type: string; data?: { object?: { id?: unknown; status?: unknown } } }, at = Date.now()): 'processed' | 'ignored' {
    if (!PAYMENT_EVENTS.has(event.type)) return 'ignored';
    if (!this.firstSeen.has(event.id)) set(this.firstSeen, event.id, at);
    bump(this.events, event.id);
    const payment = event.data?.object;
    if (typeof payment?.id !== 'string' || typeof payment.status !== 'string') return 'processed';
    this.updateStatus(payment.id, payment.status);
    if (this.fulfils({ type: event.type, status: payment.status })) this.fulfil(payment.id);
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
    if (this.moves({ held: this.payments.get(paymentId), status })) set(this.payments, paymentId, status);
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

/** The steps of this file that plant faults (references/receiver/faults.ts reads their declarations). */
export const FAULTY_STEPS: readonly PlantingStep[] = [FULFILS, MOVES];
