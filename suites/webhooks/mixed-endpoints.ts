/**
 * esid: Events › Receiver operation — "The service sends POST requests … to each enabled endpoint
 *       subscribed to the event type"; Delivery rules 1-2 — "Any 2xx response acknowledges …
 *       Failed deliveries are retried immediately, then after 30 seconds, …".
 *
 * Endpoints with different behaviours in one story (DESIGN oracle 14): a delivery is an event at
 * one endpoint, and each endpoint's attempts and retries are its own, whatever another endpoint
 * answered. The sink answers each endpoint by its own plan, a `sink@<path>` metadata key
 * (service/sink/README.md): one endpoint acknowledges at once while another fails K attempts, or
 * holds its first attempt past the 10 s time-out. Each (event, endpoint) is then judged against
 * its own plan: the acknowledging endpoint is not retried, the failing one gets every retry it is
 * owed, none earlier than its gap, each with the first attempt's event id and bytes, and no endpoint
 * that should get nothing (disabled, another environment, not subscribed)
 * gets anything of the story.
 */
import { arrivalLatenessMs, ENDPOINT_MARKER_PREFIX, type Delivery } from '../../service/sink/index.ts';
import { deliveriesFor, expectedDeliveries } from '../_shared/arrivals.ts';
import type { Story } from '../_shared/stories.ts';
import { subscribers, type Endpoint, type Hooks } from '../_shared/webhook-hooks.ts';
import { CLOCK_SLACK_MS } from './limits.ts';
import { scaledGapMs } from './timing.ts';

/** A metadata key is at most 64 characters (spec, Limits). */
const MAX_KEY = 64;

/** Two enabled Test endpoints that both receive payment.paid: one to fail, one to acknowledge. */
export interface EndpointPair {
  /** The one that fails (an all-types endpoint when there is one: it gets payment.created too). */
  failing: Endpoint;
  acking: Endpoint;
}

/** The pair a mixed story needs, or why the profile offers none. */
export function endpointPair(h: Hooks): EndpointPair | string {
  const paid = subscribers(h, false, 'payment.paid').filter((e) => ENDPOINT_MARKER_PREFIX.length + e.path.length <= MAX_KEY);
  if (paid.length < 2) {
    return `the profile declares ${paid.length} enabled Test endpoint(s) subscribed to payment.paid whose path fits a metadata key ` +
      `(sink@<path>, at most ${MAX_KEY} characters); one endpoint beside another needs two`;
  }
  const failing = paid.find((e) => e.events === '*') ?? paid[0]!;
  return { failing, acking: paid.find((e) => e !== failing)! };
}

/** A story's plan: what the failing endpoint answers, and how many attempts each of its events is owed. */
export interface MixedPlan {
  name: string;
  pair: EndpointPair;
  /** `fail:500x<K>` or `timeout:1` (service/sink/answer-plan.ts). */
  failMarker: string;
  /** Attempts each event is owed at the failing endpoint: the failed ones and the one that is acknowledged. */
  owed: number;
}

/** The story's metadata: each endpoint of the pair its own plan. */
export function mixedMetadata(plan: MixedPlan): Record<string, string> {
  return {
    [`${ENDPOINT_MARKER_PREFIX}${plan.pair.failing.path}`]: plan.failMarker,
    [`${ENDPOINT_MARKER_PREFIX}${plan.pair.acking.path}`]: 'ack:200',
  };
}

/** Whether every (event, endpoint) of the story has what its plan owes it. */
export function mixedComplete(h: Hooks, plan: MixedPlan, story: Story, ds: readonly Delivery[]): boolean {
  const owed = (path: string) => (path === plan.pair.failing.path ? plan.owed : 1);
  return expectedDeliveries(h, [story]).every((x) => deliveriesFor(ds, x).length >= owed(x.endpoint.path));
}

function answerText(d: Delivery): string {
  return d.answer.kind === 'status' || d.answer.kind === 'redirect' ? String(d.answer.status) : d.answer.kind;
}

/** One line per attempt: `#seq answer`. */
function attemptsText(got: readonly Delivery[]): string {
  return got.map((d) => `#${d.seq} ${answerText(d)}`).join(', ') || 'none';
}

export interface MixedFinding {
  /** (event, endpoint) pairs judged against their plan, and endpoints checked to get nothing. */
  checked: number;
  problems: string[];
  /** Per (event, endpoint): the answers the sink gave, in arrival order (the evidence). */
  seen: Record<string, string>;
}

/** Judges each (event, endpoint) of the story against its own plan, and every other endpoint against nothing. */
export function judgeMixed(h: Hooks, plan: MixedPlan, story: Story, ds: readonly Delivery[], boundMs: number): MixedFinding {
  const f: MixedFinding = { checked: 0, problems: [], seen: {} };
  const expected = expectedDeliveries(h, [story]);
  for (const x of expected) {
    const got = deliveriesFor(ds, x).sort((a, b) => a.receivedAt - b.receivedAt || a.seq - b.seq);
    const label = `${x.emitted.type} at ${x.endpoint.path}`;
    f.seen[label] = attemptsText(got);
    if (got.length === 0) continue; // never delivered: HOOK-AT-LEAST-ONCE
    f.checked++;
    f.problems.push(...sameEventAndGaps(h, label, got));
    if (x.endpoint.path === plan.pair.failing.path) {
      if (got.length < plan.owed) {
        const beside = subscribers(h, false, x.emitted.type).includes(plan.pair.acking)
          ? `, while ${plan.pair.acking.path} acknowledged the same event at once: its retries stopped when another endpoint answered`
          : '';
        f.problems.push(`${label} (${plan.failMarker}) got ${got.length} attempt(s) of the ${plan.owed} it is owed within ` +
          `${Math.round(boundMs / 1000)} s (${attemptsText(got)})${beside}`);
      }
    } else if (got.length > 2) {
      f.problems.push(`${label} acknowledged its first attempt (ack:200) and was retried: ${got.length} attempts (${attemptsText(got)}), ` +
        `while ${plan.pair.failing.path} failed (${plan.failMarker}): another endpoint's failure drove its retries`);
    }
  }
  const owed = new Set(expected.map((x) => `${x.emitted.type} ${x.endpoint.path}`));
  const stray = ds.filter((d) => d.event?.paymentId === story.paymentId && !owed.has(`${d.event.type} ${d.path}`));
  // "Nothing to the others" says something only when the story's own deliveries came (a target that delivers nothing sends
  // nothing anywhere: that is HOOK-AT-LEAST-ONCE's, and no check here).
  if (f.checked > 0) f.checked += h.endpoints.length - new Set(expected.map((x) => x.endpoint.path)).size;
  for (const d of stray.slice(0, 3)) {
    f.problems.push(`${d.event?.type} of ${story.paymentId} reached ${d.path} (#${d.seq}), which should get nothing of it ` +
      '(disabled, another environment or not subscribed to the type)');
  }
  return f;
}

/** Every attempt at one endpoint the first one's event id and bytes, and no retry earlier than its gap (as HOOK-RETRY-SCHEDULE judges). */
function sameEventAndGaps(h: Hooks, label: string, got: readonly Delivery[]): string[] {
  const [first] = got;
  const out: string[] = [];
  const arrivals = got.map((d) => d.receivedAt);
  const gaps = got.map((_, i) => scaledGapMs(h, i + 1));
  for (let n = 1; n < got.length; n++) {
    const [a, b] = [got[n - 1]!, got[n]!];
    if (b.event?.id !== first!.event?.id || b.bodySha256 !== first!.bodySha256) {
      const what = b.event?.id === first!.event?.id ? 'other bytes than' : `event id ${b.event?.id}, not`;
      out.push(`${label}: attempt ${n + 1} (#${b.seq}) carries ${what} attempt 1's (#${first!.seq}); ` +
        'a retry carries the same event id and body');
    }
    const want = scaledGapMs(h, n);
    const actual = b.receivedAt - a.receivedAt;
    // Attempt n's own latency may shorten the gap as measured by as much as it arrived late (arrival-lateness.ts).
    const late = arrivalLatenessMs(arrivals, gaps, n - 1);
    if (actual < want - CLOCK_SLACK_MS - late - (a.loopLagMs ?? 0)) {
      out.push(`${label}: attempt ${n + 1} (#${b.seq}) came ${Math.round(actual)} ms after attempt ${n}, ` +
        `before its gap (${Math.round(want)} ms at time_scale ${h.scale})`);
    }
  }
  return out;
}
