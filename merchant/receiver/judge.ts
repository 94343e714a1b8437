/** Judges the receiver's answers and its inspection into per-rule check outcomes. */
import type { RuleId } from '../../catalogue/index.ts';
import type { Evidence } from '../../catalogue/report/model.ts';
import { RESPONSE_TIMEOUT_MS, type DeliveryResult } from './deliver.ts';
import type { Inspection, InspectionResult } from './inspect.ts';
import type { Expectation, Probe } from './probes.ts';
import type { CheckOutcome, RuleJudgement } from '../../results/verdict/side-report.ts';
import type { Scenario } from './scenarios.ts';

export interface Sent {
  rule: RuleId;
  name: string;
  expect: Expectation;
  paymentId?: string;
  result: DeliveryResult;
  probe?: Probe;
}

function answerText(r: DeliveryResult): string {
  return r.timedOut ? `no answer within ${RESPONSE_TIMEOUT_MS / 1000} s` : r.transportError ? `transport ` +
    `failure: ${r.transportError}` : `answered ${r.status} in ${Math.round(r.ms)} ms`;
}

function evidenceOf(s: Sent, message: string, expected: string | number): Evidence[] {
  return [
    { kind: 'mismatch', message: `${s.name}: ${message}`, expected, actual: s.result.status ?? s.result.transportError },
    { kind: 'exchange', exchange: s.result.exchange },
  ];
}

/** One delivery judged on its answer alone. */
export function judgeAnswer(s: Sent): CheckOutcome {
  const r = s.result;
  const base = { name: s.name, durationMs: r.ms, requests: 1 };
  const twoxx = r.status !== undefined && r.status >= 200 && r.status < 300;
  if (s.expect === 'observe') return { ...base, state: 'pass', evidence: [{ kind: 'note', message: `${s.name}: ${answerText(r)}` }] };
  if (r.transportError && !r.timedOut && /ECONNREFUSED/.test(r.transportError)) return { ...base, state: 'error', message: answerText(r) };
  if (s.expect === 'ack' && !twoxx) return {
    ...base,
    state: 'fail',
    message: `${answerText(r)}, expected a 2xx acknowledgement`,
    evidence: evidenceOf(s, answerText(r), '2xx within 10 s'),
  };
  if (s.expect === 'reject' && r.status !== 400) return {
    ...base,
    state: 'fail',
    message: `${answerText(r)}, expected 400`,
    evidence: evidenceOf(s, answerText(r), 400),
  };
  return { ...base, state: 'pass', evidence: [{ kind: 'note', message: `${s.name}: ${answerText(r)}` }] };
}

/** RECV-RESPONSE-TIME: every delivery answered within 10 s; the time of each recorded. */
export function judgeResponseTime(all: readonly Sent[]): RuleJudgement {
  const checks: CheckOutcome[] = all.map((s) => {
    const late = s.result.timedOut || s.result.ms > RESPONSE_TIMEOUT_MS;
    return late
      ? {
        name: s.name,
        state: 'fail',
        durationMs: s.result.ms,
        requests: 1,
        message: answerText(s.result),
        evidence: evidenceOf(s, answerText(s.result), `an answer within ${RESPONSE_TIMEOUT_MS / 1000} s`),
      }
      : { name: s.name, state: 'pass', durationMs: s.result.ms, requests: 1 };
  });
  const ms = all.map((s) => Math.round(s.result.ms)).sort((a, b) => a - b);
  return {
    checks,
    skipReason: '0 deliveries made',
    observed: {
      deliveries: ms.length,
      max_ms: ms.at(-1),
      median_ms: ms[Math.floor(ms.length / 2)],
      per_delivery_ms: Object.fromEntries(all.map((s) => [`${s.rule}: ${s.name}`, Math.round(s.result.ms)])),
    },
  };
}

const twoxx = (s: Sent) => s.result.status !== undefined && s.result.status >= 200 && s.result.status < 300;

/** RECV-DEDUPLICATE and RECV-ARRIVAL-ORDER, from the scenario deliveries and the inspection; `proof`: what the redeliveries proved (redelivery.ts) and at which time scale. */
export function judgeScenario(
  sc: Scenario,
  sent: readonly Sent[],
  insp: Inspection,
  proof: { window: string; timeScale: number } = { window: '', timeScale: 1 },
): RuleJudgement {
  const window = proof.window;
  const notAcked = sent.find((s) => !twoxx(s));
  const evidence: Evidence[] = sent.map((s) => ({ kind: 'exchange', exchange: s.result.exchange }));
  const seen = { events: insp.events[sc.eventId], fulfilled: insp.fulfilled[sc.paymentId], status: insp.payments[sc.paymentId] };
  const note: Evidence = { kind: 'note', message: `inspection: events[${sc.eventId}]=${seen.events ?? 'absent'}, fulfilled[${sc.paymentId}]=${seen.fulfilled ?? 'absent'}, payments[${sc.paymentId}]=${seen.status ?? 'absent'}` };
  const name = sc.steps.map((s) => s.name).join(' → ');
  const fail = (message: string, expected: unknown, actual: unknown): RuleJudgement => ({
    checks: [{
      name,
      state: 'fail',
      message,
      requests: sent.length,
      evidence: [{ kind: 'mismatch', message, expected, actual }, note, ...evidence],
    }],
  });
  if (notAcked) return fail(
    `${notAcked.name}: ${answerText(notAcked.result)}, expected a 2xx`,
    '2xx',
    notAcked.result.status ?? notAcked.result.transportError,
  );
  if (sc.rule === 'RECV-DEDUPLICATE') {
    if (seen.events === undefined) return {
      checks: [],
      skipReason: `the inspection does not list ${sc.eventId}: the event was not processed at all, so deduplication could not be observed`,
    };
    if (seen.events !== 1) return fail(
      `event ${sc.eventId} delivered ${sent.length} times (${sent.slice(1).map((s) => s.name.replace(
        /^payment\.paid, /,
        '',
      ).replace(/ \(same id and body\)$/, '')).join('; ')}) was processed ${seen.events} times`,
      1,
      seen.events,
    );
    if ((seen.fulfilled ?? 0) > 1) return fail(
      `payment ${sc.paymentId} fulfilled ${seen.fulfilled} times from one event`,
      1,
      seen.fulfilled,
    );
  } else {
    if (seen.status === undefined) return {
      checks: [],
      skipReason: `the inspection holds no status for ${sc.paymentId}: the events were not processed`,
    };
    if (seen.status !== 'PAID') return fail(
      `after payment.paid then a late payment.created, the receiver holds ${seen.status}`,
      'PAID',
      seen.status,
    );
    if (seen.fulfilled !== 1) return fail(
      `payment ${sc.paymentId} paid once was fulfilled ${seen.fulfilled ?? 0} times`,
      1,
      seen.fulfilled ?? 0,
    );
  }
  const proven: Evidence[] = sc.rule === 'RECV-DEDUPLICATE' && window ? [{ kind: 'note', message: `deduplication ${window}` }] : [];
  return { checks: [{ name, state: 'pass', requests: sent.length, evidence: [note, ...proven] }], ...(proven.length ? { observed: { redeliveries: sent.length - 1, window, dedup_time_scale: proof.timeScale } } : {}) };
}

/** RECV-FULFIL-ON-PAID: nothing fulfilled from forged, stale or non-payment.paid events; a verified payment.paid is (the positive control). */
export function judgeFulfilment(sent: readonly Sent[], insp: Inspection): RuleJudgement {
  const controls = sent.filter((s) => s.probe?.fulfils && s.paymentId && twoxx(s));
  if (!controls.some((s) => (insp.fulfilled[s.paymentId!] ?? 0) >= 1)) {
    return { checks: [], skipReason: noPositiveControl(sent, controls, insp) };
  }
  const checks: CheckOutcome[] = sent.filter((s) => s.probe?.mustNotFulfil && s.paymentId).map((s) => {
    const n = insp.fulfilled[s.paymentId!] ?? 0;
    if (n === 0) return { name: `${s.rule} · ${s.name}: not fulfilled`, state: 'pass', requests: 1 };
    const message = `payment ${s.paymentId} was fulfilled from "${s.name}" (${s.rule}), ` +
      `answered ${s.result.status ?? s.result.transportError}`;
    return {
      name: `${s.rule} · ${s.name}`,
      state: 'fail',
      requests: 1,
      message,
      evidence: [{ kind: 'mismatch', message, expected: 0, actual: n }, { kind: 'exchange', exchange: s.result.exchange }],
    };
  });
  return { checks, skipReason: 'no delivery that must not fulfil was sent' };
}

/**
 * Why RECV-FULFIL-ON-PAID has no positive control, in words true to what was seen: the positive
 * control counts only a verified payment.paid that was acknowledged (2xx within 10 s); one answered
 * late or not 2xx is not counted even when the inspection shows its Payment fulfilled.
 */
function noPositiveControl(sent: readonly Sent[], acked: readonly Sent[], insp: Inspection): string {
  const shipped = Object.keys(insp.fulfilled).length;
  const listed = `the inspection lists ${shipped} fulfilled Payment${shipped === 1 ? '' : 's'}`;
  const never = '"only from payment.paid" cannot be told from "never"';
  if (acked.length) return `the inspection shows no fulfilment of the acknowledged verified payment.paid (${listed}): ${never}`;
  const unacked = sent.filter((s) => s.probe?.fulfils && s.paymentId);
  if (unacked.length === 0) return `no verified payment.paid was delivered: ${never}`;
  const shown = unacked.filter((s) => (insp.fulfilled[s.paymentId!] ?? 0) >= 1).length ? ' (the inspection shows it fulfilled)' : '';
  return `the verified payment.paid was not acknowledged (${answerText(unacked[0]!.result)})${shown}, and the positive control counts ` +
    `only an acknowledged delivery (${listed}): ${never}`;
}

/**
 * RECV-REJECTED-NOT-PROCESSED (Signature rule 3): an event failing the check leaves no effect the
 * inspection shows: its id not among the events, no status held and no fulfilment for its Payment
 * (each probe's Payment id is its own). The positive control: a verified event is shown processed.
 */
export function judgeNotProcessed(sent: readonly Sent[], insp: Inspection): RuleJudgement {
  const verified = sent.filter((s) => s.probe?.rule === 'RECV-ACK-EVERY-TYPE' && s.paymentId && twoxx(s));
  if (!verified.some((s) => s.result.exchange.request.headers['service-event-id']! in insp.events || s.paymentId! in insp.payments)) {
    return {
      checks: [],
      skipReason: 'the inspection shows no effect even of the verified events (neither their ids under "events" nor their Payments ' +
        'under "payments"): "not processed" cannot be told from "nothing shown"',
    };
  }
  const checks: CheckOutcome[] = sent.filter((s) => s.probe?.mustNotProcess && s.paymentId).map((s) => {
    const eventId = s.result.exchange.request.headers['service-event-id']!;
    const effects = [
      ...(eventId in insp.events ? [`events[${eventId}]=${insp.events[eventId]}`] : []),
      ...(s.paymentId! in insp.payments ? [`payments[${s.paymentId}]=${insp.payments[s.paymentId!]}`] : []),
      ...(s.paymentId! in insp.fulfilled ? [`fulfilled[${s.paymentId}]=${insp.fulfilled[s.paymentId!]}`] : []),
    ];
    if (effects.length === 0) return { name: `${s.rule} · ${s.name}: no effect`, state: 'pass', requests: 1 };
    const message = `"${s.name}" (${s.rule}), answered ${s.result.status ?? s.result.transportError}, was processed: the inspection ` +
      `shows ${effects.join(', ')}`;
    return {
      name: `${s.rule} · ${s.name}`,
      state: 'fail',
      requests: 1,
      message,
      evidence: [
        { kind: 'mismatch', message, expected: 'no event id, status or fulfilment', actual: effects.join(', ') },
        { kind: 'exchange', exchange: s.result.exchange },
      ],
    };
  });
  return { checks, skipReason: 'no delivery failing the signature check was sent' };
}

export function inspectionSkip(r: InspectionResult | undefined): string {
  if (r === undefined) return 'no receiver.inspect_url (--inspect-url): the receiver\'s processing cannot be observed';
  return r.ok ? '' : r.problem;
}
