/**
 * The business side of the real-framework receivers, written as a merchant would: deduplicate on
 * event.id, keep each Payment's status moving forward only, ship the order once on a PAID
 * payment.paid, acknowledge unknown types. It exposes the test-mode inspection contract
 * (docs/merchant-side.md). The frameworks differ only in how they get the raw body to verify.
 */
const RANK: Record<string, number> = { PENDING: 0, PAID: 1, CANCELLED: 1, REVERSED: 2 };

export interface WebhookEvent {
  id: string;
  type: string;
  data?: { object?: { id?: unknown; status?: unknown } };
}

export class Orders {
  readonly events: Record<string, number> = {};
  readonly fulfilled: Record<string, number> = {};
  readonly payments: Record<string, string> = {};

  handle(event: WebhookEvent): void {
    if (!event.type.startsWith('payment.') || ![
      'payment.created',
      'payment.paid',
      'payment.cancelled',
      'payment.reversed',
    ].includes(event.type)) return;
    if (this.events[event.id]) return;
    this.events[event.id] = 1;
    this.record(event);
  }

  /** Stores the status the event's Payment snapshot carries (forward only). */
  storeStatus(event: WebhookEvent): void {
    const p = event.data?.object;
    if (typeof p?.id !== 'string' || typeof p.status !== 'string') return;
    const held = this.payments[p.id];
    if (held === undefined || (RANK[p.status] ?? 0) >= (RANK[held] ?? 0)) this.payments[p.id] = p.status;
  }

  /** The status, then shipping on payment.paid. */
  record(event: WebhookEvent): void {
    this.storeStatus(event);
    const p = event.data?.object;
    if (typeof p?.id !== 'string') return;
    if (event.type === 'payment.paid' && p.status === 'PAID' && !this.fulfilled[p.id]) this.fulfilled[p.id] = 1;
  }

  inspection(): { events: Record<string, number>; fulfilled: Record<string, number>; payments: Record<string, string> } {
    return { events: this.events, fulfilled: this.fulfilled, payments: this.payments };
  }
}
