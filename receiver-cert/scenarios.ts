/**
 * Stateful deliveries judged through the inspection contract: a retried event (same id, same
 * body, re-signed a second later, as the service's retries are) and events out of order.
 */
import type { RuleId } from '../catalogue/index.ts';
import { buildEvent, compact, type BuiltEvent } from './events.ts';
import type { Delivery } from './deliver.ts';
import { hmacHex, type ProbeKit } from './probes.ts';

export interface ScenarioStep {
  name: string;
  event: BuiltEvent;
  delivery: Delivery;
}

export interface Scenario {
  rule: RuleId;
  paymentId: string;
  eventId: string;
  steps: ScenarioStep[];
}

function step(k: ProbeKit, name: string, event: BuiltEvent, age: number): ScenarioStep {
  const body = compact(event);
  const t = k.now() - age;
  return { name, event, delivery: { eventId: event.id, body, signature: `t=${t},v1=${hmacHex(k.secret, t, body)}` } };
}

export function buildScenarios(k: ProbeKit): Scenario[] {
  const paid = buildEvent('payment.paid', k.ids);
  const dedupe: Scenario = {
    rule: 'RECV-DEDUPLICATE', paymentId: paid.paymentId!, eventId: paid.id,
    steps: [step(k, 'payment.paid, first attempt', paid, 1), step(k, 'payment.paid, retry (same id and body)', paid, 0)],
  };
  const paymentId = k.ids.payment();
  const createdAt = Date.now() - 60_000;
  const late = buildEvent('payment.created', k.ids, { paymentId, createdAtMs: createdAt });
  const early = buildEvent('payment.paid', k.ids, { paymentId });
  const order: Scenario = {
    rule: 'RECV-ARRIVAL-ORDER', paymentId, eventId: early.id,
    steps: [step(k, 'payment.paid arrives first', early, 0), step(k, 'payment.created arrives after it', late, 0)],
  };
  return [dedupe, order];
}
