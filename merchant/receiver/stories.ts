/**
 * RECV-EVENT-STORIES: the events of one Payment told in the orders the spec allows (arrival order
 * is not guaranteed, delivery is at least once: Delivery rules), each story on a Payment of its
 * own, every story on every seed. Each event has its own id except a redelivery, which is the same
 * event (same id, byte-identical body) signed again when sent, as the service's retries are. The
 * Payment a fetching receiver reads (payments-stub.ts) is the story's truth so far (scenarios.ts
 * truthAt): the most advanced event sent yet, never moved back (a late payment.created finds it PAID).
 */
import { buildEvent, type BuiltEvent, type EventIds } from './events.ts';
import { step, type Scenario, type ScenarioStep } from './scenarios.ts';

export interface Story extends Scenario {
  /** The story in a few words ("created then paid"). */
  title: string;
  /** The Payment's current status once the story is told (what the receiver must hold). */
  final: 'PAID' | 'CANCELLED';
  /** How many times its Payment must be fulfilled: once when paid, never when cancelled. */
  fulfilments: 0 | 1;
}

type Kind = 'created' | 'paid' | 'cancelled';

/** The stories, as the order their events arrive in; `again` is a redelivery of the event of that kind sent before. */
const TOLD: ReadonlyArray<{ title: string; order: ReadonlyArray<Kind | `${Kind} again`> }> = [
  { title: 'created then paid', order: ['created', 'paid'] },
  { title: 'paid then created', order: ['paid', 'created'] },
  { title: 'created then cancelled', order: ['created', 'cancelled'] },
  { title: 'cancelled then created', order: ['cancelled', 'created'] },
  { title: 'paid redelivered after the later created', order: ['paid', 'created', 'paid again'] },
  { title: 'created redelivered after paid was processed', order: ['created', 'paid', 'created again'] },
];

/** The events of one Payment: created a minute ago, then paid or cancelled 20 s later; one created_at in every snapshot. */
function eventsOf(ids: EventIds): Record<Kind, BuiltEvent> {
  const paymentId = ids.payment();
  const createdAt = Date.now() - 60_000;
  const at = (type: string, ms: number) => {
    const e = buildEvent(type, ids, { paymentId, createdAtMs: ms });
    (e.value.data as { object: Record<string, unknown> }).object.created_at = new Date(createdAt).toISOString();
    return e;
  };
  return {
    created: at('payment.created', createdAt),
    paid: at('payment.paid', createdAt + 20_000),
    cancelled: at('payment.cancelled', createdAt + 20_000),
  };
}

export function buildStories(ids: EventIds): Story[] {
  return TOLD.map(({ title, order }): Story => {
    const events = eventsOf(ids);
    const steps: ScenarioStep[] = order.map((k) => {
      const kind = k.replace(/ again$/, '') as Kind;
      const e = events[kind];
      return step(k === kind ? `${e.type} ${e.id}` : `${e.type} ${e.id} again (same id and body)`, e);
    });
    const final = order.some((k) => k.startsWith('cancelled')) ? 'CANCELLED' : 'PAID';
    const paymentId = events.created.paymentId!;
    const fulfilments = final === 'PAID' ? 1 : 0;
    return { rule: 'RECV-EVENT-STORIES', title, paymentId, eventId: steps[0]!.event.id, steps, final, fulfilments };
  });
}
