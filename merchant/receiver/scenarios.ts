/**
 * Stateful deliveries judged through the inspection contract: a retried event (same id, same
 * body, re-signed at each attempt as the service's retries are) redelivered along the retry
 * schedule (redelivery.ts), and events out of order. Each step is signed when it is sent.
 */
import type { RuleId } from '../../catalogue/index.ts';
import { buildEvent, compact, type BuiltEvent } from './events.ts';
import type { Delivery } from './deliver.ts';
import { hmacHex, type ProbeKit } from './probes.ts';
import { redeliveryGaps, spoken, type DedupPlan } from './redelivery.ts';

export interface ScenarioStep {
  name: string;
  event: BuiltEvent;
  body: Buffer;
  /** Wait this long after the previous step was answered (ms; 0 for the first). */
  gapMs: number;
  /** How old its signature's t is when sent (s). */
  ageS: number;
}

export interface Scenario {
  rule: RuleId;
  paymentId: string;
  eventId: string;
  steps: ScenarioStep[];
}

/** A step signed now, as the service signs each attempt. */
export function signedDelivery(k: ProbeKit, st: ScenarioStep): Delivery {
  const t = k.now() - st.ageS;
  return { eventId: st.event.id, body: st.body, signature: `t=${t},v1=${hmacHex(k.secret, t, st.body)}` };
}

export const step = (name: string, event: BuiltEvent, gapMs = 0, ageS = 0): ScenarioStep => ({
  name, event, body: compact(event), gapMs, ageS,
});

export function buildScenarios(k: ProbeKit, dedup: DedupPlan): Scenario[] {
  const paid = buildEvent('payment.paid', k.ids);
  const retries = redeliveryGaps(dedup).map((
    gap,
    i,
  ) => step(
    `payment.paid, retry ${i + 1} ${gap === 0 ? 'immediately' : `${spoken(gap)} after the previous attempt`} (same id and body)`,
    paid,
    gap,
  ));
  const dedupe: Scenario = {
    rule: 'RECV-DEDUPLICATE',
    paymentId: paid.paymentId!,
    eventId: paid.id,
    steps: [step('payment.paid, first attempt', paid, 0, 1), ...retries],
  };
  const paymentId = k.ids.payment();
  const createdAt = Date.now() - 60_000;
  const late = buildEvent('payment.created', k.ids, { paymentId, createdAtMs: createdAt });
  const early = buildEvent('payment.paid', k.ids, { paymentId });
  const order: Scenario = {
    rule: 'RECV-ARRIVAL-ORDER', paymentId, eventId: early.id,
    steps: [step('payment.paid arrives first', early), step('payment.created arrives after it', late)],
  };
  return [dedupe, order];
}

/** Statuses never move back: a Payment's truth after a step is its most advanced event so far. */
const RANK: Readonly<Record<string, number>> = { PENDING: 0, PAID: 1, CANCELLED: 1 };

/** The Payment as the service holds it when step `i` is sent: the snapshot of the most advanced event of steps 0..i. */
export function truthAt(steps: readonly ScenarioStep[], i: number): Record<string, unknown> | undefined {
  let truth: Record<string, unknown> | undefined;
  for (const st of steps.slice(0, i + 1)) {
    const p = (st.event.value.data as { object?: Record<string, unknown> } | undefined)?.object;
    if (p?.object !== 'payment') continue;
    if (!truth || (RANK[String(p.status)] ?? 0) >= (RANK[String(truth.status)] ?? 0)) truth = p;
  }
  return truth;
}
