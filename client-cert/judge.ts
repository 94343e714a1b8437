/**
 * Judges the recorded request sequence against the spec's client retry guidance (Errors):
 * retried when it should, same Idempotency-Key, Retry-After waited, no cancel retried after a
 * 5xx or a network failure, no 4xx re-sent, no duplicate Payment. Only what the chaos server
 * injected (and the service's own 4xx answers to POSTs) is judged; a rule with nothing to judge
 * is SKIP with the reason.
 */
import type { RuleId } from '../catalogue/index.ts';
import type { Exchange } from '../core/client.ts';
import type { Evidence } from '../report/model.ts';
import type { CheckOutcome, RuleJudgement } from '../receiver/report.ts';
import type { RecordedRequest } from './recorder.ts';
import { describeInjection, INJECTED_RETRY_AFTER_S, type Injection } from './schedule.ts';

/** Timer granularity allowed when comparing a retry's delay with Retry-After. */
const RETRY_AFTER_SLACK_MS = 10;
const TRANSIENT: readonly Injection[] = ['reset-after-create', 'reset-before', '429', '502', '503', '504'];

export function judgeClient(log: readonly RecordedRequest[]): Map<RuleId, RuleJudgement> {
  const after = (r: RecordedRequest) => log.filter((x) => x.seq > r.seq && x.identity === r.identity);
  const injected = log.filter((r) => r.injected);
  const out = new Map<RuleId, RuleJudgement>();
  const seqOf = (r: RecordedRequest) => [r, ...after(r)];

  out.set('RECV-CLIENT-RETRY', {
    skipReason: 'no create or read met an injected network failure, 429, 502, 503 or 504',
    checks: injected.filter((r) => (r.kind === 'create' || r.kind === 'read') && TRANSIENT.includes(r.injected!)).map((r) =>
      after(r).length ? ok(r, `retried as #${after(r)[0]!.seq}`) : bad(r, `${label(r)} met ${describeInjection(r.injected!)} and was never retried`, seqOf(r))),
  });
  const retriedCreates = injected.filter((r) => r.kind === 'create' && after(r).length);
  out.set('CLIENT-SAME-IDEMPOTENCY-KEY', {
    skipReason: 'no create was retried after an injected failure',
    checks: retriedCreates.map((r) => {
      const other = after(r).find((x) => x.idempotencyKey !== r.idempotencyKey);
      if (r.idempotencyKey === undefined) return bad(r, `${label(r)} carried no Idempotency-Key, so its retry #${after(r)[0]!.seq} cannot be deduplicated`, seqOf(r));
      return other ? bad(r, `retry #${other.seq} carried another Idempotency-Key (${other.idempotencyKey ?? 'none'}) than the first attempt (${r.idempotencyKey})`, seqOf(r)) : ok(r, 'every retry carried the first key');
    }),
  });
  out.set('CLIENT-CREATE-HAS-KEY', {
    skipReason: 'the command made no create',
    checks: log.filter((r) => r.kind === 'create').map((r) => (r.idempotencyKey ? ok(r, 'has a key') : bad(r, `${label(r)} carried no Idempotency-Key`, [r]))),
  });
  out.set('CLIENT-HONOUR-RETRY-AFTER', {
    skipReason: 'no request answered 429 was retried',
    checks: injected.filter((r) => r.injected === '429' && after(r).length).map((r) => {
      const next = after(r)[0]!;
      const waited = next.arrivedMs - (r.answeredMs ?? r.arrivedMs);
      return waited >= INJECTED_RETRY_AFTER_S * 1000 - RETRY_AFTER_SLACK_MS
        ? ok(r, `retried after ${waited} ms`)
        : bad(r, `${label(r)} was retried ${waited} ms after a 429 with Retry-After: ${INJECTED_RETRY_AFTER_S}`, seqOf(r));
    }),
  });
  out.set('CLIENT-CANCEL-RETRY-ONLY-429', {
    skipReason: 'no cancel met an injected 5xx or network failure',
    checks: injected.filter((r) => r.kind === 'cancel' && r.injected !== '429').map((r) =>
      after(r).length ? bad(r, `${label(r)} met ${describeInjection(r.injected!)} and was retried as #${after(r)[0]!.seq}`, seqOf(r)) : ok(r, 'not retried')),
  });
  out.set('CLIENT-NO-RETRY-4XX', judgeNo4xxRetry(log, after, seqOf));
  out.set('CLIENT-NO-DUPLICATE-PAYMENT', {
    skipReason: 'no create met a connection reset after its Payment was created',
    checks: injected.filter((r) => r.injected === 'reset-after-create' && r.paymentId).map((r) => {
      const ids = new Set([r.paymentId!, ...after(r).filter((x) => x.upstreamStatus === 201 && x.paymentId).map((x) => x.paymentId!)]);
      return ids.size > 1 ? bad(r, `reset after ${r.paymentId} was created, led to ${ids.size} Payments: ${[...ids].join(', ')}`, seqOf(r)) : ok(r, `one Payment (${r.paymentId})`);
    }),
  });
  const inProgress = injected.filter((r) => r.injected === '409-in-progress');
  out.set('CLIENT-IN-PROGRESS-RETRY', {
    skipReason: 'no create met an injected 409 idempotency_in_progress',
    checks: inProgress.map((r) => ok(r, after(r).length ? `retried as #${after(r)[0]!.seq}${after(r)[0]!.idempotencyKey === r.idempotencyKey ? ' with the same key' : ' with another key'}` : 'not retried')),
    observed: Object.fromEntries(inProgress.map((r) => [label(r), after(r).length ? (after(r)[0]!.idempotencyKey === r.idempotencyKey ? 'retried, same key' : 'retried, other key') : 'not retried'])),
  });
  return out;
}

function judgeNo4xxRetry(log: readonly RecordedRequest[], after: (r: RecordedRequest) => RecordedRequest[], seqOf: (r: RecordedRequest) => RecordedRequest[]): RuleJudgement {
  const final4xx = log.filter((r) => r.method === 'POST' && r.status !== undefined && r.status >= 400 && r.status < 500 && r.status !== 429 && r.errorCode !== 'idempotency_in_progress');
  return {
    skipReason: 'no create or cancel was answered 400 or another final 4xx',
    checks: final4xx.map((r) => {
      const again = after(r).find((x) => x.body === r.body);
      return again ? bad(r, `${label(r)} answered ${r.status}${r.injected ? ' (injected)' : ''} was re-sent unchanged as #${again.seq}`, seqOf(r)) : ok(r, 'not re-sent');
    }),
  };
}

function label(r: RecordedRequest): string {
  return `#${r.seq} ${r.method} ${r.path.split('?')[0]}`;
}

function ok(r: RecordedRequest, message: string): CheckOutcome {
  return { name: `${label(r)}: ${message}`, state: 'pass', requests: 1 };
}

function bad(r: RecordedRequest, message: string, sequence: readonly RecordedRequest[]): CheckOutcome {
  // The check's name is the request's label already; the reason reads "#3 POST /v1/payments: met 502 …".
  const short = message.startsWith(`${label(r)} `) ? message.slice(label(r).length + 1) : message;
  return { name: label(r), state: 'fail', message: short, requests: sequence.length, evidence: [{ kind: 'mismatch', message }, ...sequenceEvidence(sequence)] };
}

/** The request sequence of one operation, the injected failure marked in a note before its exchange. */
export function sequenceEvidence(sequence: readonly RecordedRequest[]): Evidence[] {
  return sequence.slice(0, 8).flatMap((r): Evidence[] => [
    { kind: 'note', message: `#${r.seq} +${r.arrivedMs} ms ${r.method} ${r.path} key=${r.idempotencyKey ?? '(none)'} → ${r.injected ? describeInjection(r.injected).toUpperCase() : r.status ?? 'no answer'}` },
    { kind: 'exchange', exchange: exchangeOf(r) },
  ]);
}

export function exchangeOf(r: RecordedRequest): Exchange {
  const headers: Record<string, string> = {};
  if (r.idempotencyKey !== undefined) headers['idempotency-key'] = r.idempotencyKey;
  const ex: Exchange = {
    seq: r.seq, at: r.at, durationMs: Math.max(0, (r.answeredMs ?? r.arrivedMs) - r.arrivedMs),
    request: { method: r.method, path: r.path, headers, ...(r.body ? { body: r.body } : {}) },
  };
  if (r.status !== undefined) ex.response = { status: r.status, headers: r.injected === '429' ? { 'retry-after': String(INJECTED_RETRY_AFTER_S) } : {}, body: r.answerBody ?? '' };
  else ex.transportError = r.injected ? describeInjection(r.injected) : 'no answer recorded';
  return ex;
}
