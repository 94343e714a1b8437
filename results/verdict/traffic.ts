/**
 * What the run cost as a model client of the spec, per area: 429s waited out (and how long they
 * asked to wait), time spent at the adapted pace, time spent waiting for a target that stopped
 * answering, idempotent requests sent again, rule tests run again after a blip. Reported, never
 * judged (design: "handled the way the spec's client guidance says … reported as what it cost").
 */
import { ruleIdOfTitle } from '../../catalogue/rule-title.ts';
import type { Rule } from '../../catalogue/index.ts';
import type { Traffic, TrafficCounts } from '../../catalogue/report/model.ts';
import type { FinishedTest } from './collect.ts';

export function emptyCounts(): TrafficCounts {
  return { throttled: 0, throttle_wait_ms: 0, pace_wait_ms: 0, outage_wait_ms: 0, transport_retries: 0, status_retries: 0, reruns: 0 };
}

function add(into: TrafficCounts, t: FinishedTest): void {
  const c = t.meta?.client;
  if (c) {
    into.throttled += c.throttled;
    into.throttle_wait_ms += Math.round(c.throttleWaitMs);
    into.pace_wait_ms += Math.round(c.paceWaitMs);
    into.outage_wait_ms += Math.round(c.outageWaitMs);
    into.transport_retries += c.transportRetries;
    into.status_retries += c.statusRetries;
  }
  if (t.meta?.rerun) into.reruns += 1;
}

export function trafficOf(
  selected: readonly Rule[],
  tests: readonly FinishedTest[],
  o: { maxRps: number | null; concurrency: number },
): Traffic {
  const areaOf = new Map(selected.map((r) => [r.id as string, r.area as string]));
  const total = emptyCounts();
  const areas: Record<string, TrafficCounts> = {};
  for (const t of tests) {
    const area = areaOf.get(ruleIdOfTitle(t.title) ?? '') ?? 'other';
    add(total, t);
    add((areas[area] ??= emptyCounts()), t);
  }
  return { max_rps: o.maxRps, concurrency: o.concurrency, total, areas };
}

/** One line for the console, or undefined when the run met no back-pressure, outage or blip. */
export function trafficLine(t: Traffic | undefined): string | undefined {
  if (!t) return undefined;
  const c = t.total;
  if (c.throttled + c.transport_retries + c.status_retries + c.reruns === 0 && c.outage_wait_ms < 1000) return undefined;
  const hot = Object.entries(t.areas).filter(([, a]) => a.throttled > 0).sort((
    a,
    b,
  ) => b[1].throttled - a[1].throttled).slice(0, 4).map(([n, a]) => `${n} ${a.throttled}`);
  const parts = [
    c.throttled ? `throttled ${c.throttled}× (429 waited out, Retry-After ${(c.throttle_wait_ms / 1000).toFixed(1)} s in ` +
      `all${hot.length ? `; ${hot.join(', ')}` : ''})` : '',
    c.transport_retries + c.status_retries ? `${c.transport_retries + c.status_retries} idempotent request(s) sent again ` +
      `(${c.transport_retries} after no answer, ${c.status_retries} after 502/503/504)` : '',
    c.reruns ? `${c.reruns} rule test(s) run again after a blip` : '',
    c.outage_wait_ms >= 1000 ? `waited ${(c.outage_wait_ms / 1000).toFixed(1)} s for the target to answer again` : '',
  ].filter(Boolean);
  return `as a model client: ${parts.join(' · ')}; never judged`;
}
