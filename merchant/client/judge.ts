/**
 * Judges the recorded request sequence against the spec's client retry guidance (Errors):
 * retried when it should, the same request under the same Idempotency-Key, Retry-After waited,
 * no cancel retried after anything but a 429, no 4xx re-sent. A create is the operation its
 * Idempotency-Key names (Rules 1): a create under another key is another create, never a retry,
 * and a create without a key cannot be followed at all (its checks are SKIP, saying so). Only
 * what the chaos server injected (and the service's own 4xx answers to POSTs) is judged; a rule
 * with nothing to judge is SKIP with the reason. An exchange the proxy's upstream itself failed
 * (`upstreamFailure`) is never judged: the rules it would have exercised list it as not tried.
 */
import type { RuleId } from '../../catalogue/index.ts';
import type { Exchange } from '../../core/client.ts';
import type { Evidence } from '../../catalogue/report/model.ts';
import type { CheckOutcome, RuleJudgement } from '../../results/verdict/side-report.ts';
import type { RecordedRequest } from './recorder.ts';
import { describeInjection, RETRIED_BY_GUIDANCE } from './schedule.ts';
import { durationWords } from '../../core/duration-words.ts';

/** Timer granularity allowed when comparing a retry's delay with Retry-After. */
const RETRY_AFTER_SLACK_MS = 10;
/** The start of every skip reason of a rule the traffic never exercised (issue 30: the skip reason says which). */
export const NOT_EXERCISED = 'not exercised by this program: ';
const PARALLEL = 'not retried right after its failure, and its client sends requests in parallel: which later read is its retry cannot ' +
  'be told from the wire';
const KEYLESS = 'carried no Idempotency-Key: a later create cannot be told a retry from a new order (the spec identifies a create by ' +
  'its key)';

/** The start of a check or skip reason an upstream failure left untried (the service's failure, not the client's). */
const UPSTREAM_FAILED = 'not tried: the upstream (the service) failed, not the application: ';
const NOT_TRIED_LISTED = 20;

type After = (r: RecordedRequest) => RecordedRequest[];

export function judgeClient(log: readonly RecordedRequest[]): Map<RuleId, RuleJudgement> {
  const byIdentity = new Map<string, RecordedRequest[]>();
  for (const r of log) {
    const list = byIdentity.get(r.identity);
    if (list) list.push(r);
    else byIdentity.set(r.identity, [r]);
  }
  const after: After = (r) => (byIdentity.get(r.identity) ?? []).filter((x) => x.seq > r.seq);
  const injected = log.filter((r) => r.injected);
  const out = new Map<RuleId, RuleJudgement>();
  out.set('CLIENT-RETRY-TRANSIENT', judgeRetried(log, injected, after));
  out.set('CLIENT-SAME-IDEMPOTENCY-KEY', judgeSameKey(injected, after));
  out.set('CLIENT-CREATE-HAS-KEY', {
    skipReason: `${NOT_EXERCISED}the command made no create`,
    checks: log.filter((r) => r.kind === 'create').map((r) => (r.idempotencyKey ? ok(
      r,
      'has a key',
    ) : bad(r, `${label(r)} carried no Idempotency-Key`, [r]))),
  });
  out.set('CLIENT-HONOUR-RETRY-AFTER', judgeRetryAfter(injected, after));
  out.set('CLIENT-CANCEL-RETRY-ONLY-429', {
    skipReason: `${NOT_EXERCISED}no cancel met a 500, 503, reset or time-out`,
    checks: injected.filter((r) => r.kind === 'cancel' && r.injected !== '429').map((r) =>
      after(r).length ? bad(
        r,
        `${label(r)} met ${describe(r)} and was retried as #${after(r)[0]!.seq} (a cancel is retried only after a 429)`,
        [r, ...after(r)],
      ) : ok(r, `met ${r.injected}, not retried`)),
  });
  out.set('CLIENT-NO-RETRY-4XX', judgeNo4xxRetry(log, after));
  out.set(
    'CLIENT-RETRY-AFTER-500',
    observeRetry(injected.filter((r) => r.injected === '500' && r.kind !== 'cancel'), after, `${NOT_EXERCISED}no create or read met a 500`),
  );
  out.set(
    'CLIENT-IN-PROGRESS-RETRY',
    observeRetry(
      injected.filter((r) => r.injected === '409-in-progress'),
      after,
      `${NOT_EXERCISED}no create met a 409 idempotency_in_progress`,
    ),
  );
  const upstreamFailed = log.filter((r) => r.upstreamFailure !== undefined);
  for (const [rule, exercises] of NOT_TRIED_ON) notTried(out.get(rule)!, upstreamFailed.filter(exercises));
  return out;
}

/** The rules a failure would have exercised, by the request that met it (a proxy's upstream failure: not tried on them). */
const NOT_TRIED_ON: ReadonlyArray<readonly [RuleId, (r: RecordedRequest) => boolean]> = [
  ['CLIENT-RETRY-TRANSIENT', (r) => r.kind === 'create' || r.kind === 'read'],
  ['CLIENT-SAME-IDEMPOTENCY-KEY', (r) => r.kind === 'create'],
  ['CLIENT-CANCEL-RETRY-ONLY-429', (r) => r.kind === 'cancel'],
];

/**
 * A failure of the proxy's upstream itself is never evidence against the client: what the client did
 * after it is not judged (a correct client gives up when the service stays down longer than its
 * retries last). Each such exchange is a check not tried, naming the upstream's failure (at most
 * NOT_TRIED_LISTED); a rule with nothing else judged is SKIP, saying so.
 */
function notTried(j: RuleJudgement, failed: readonly RecordedRequest[]): void {
  if (!failed.length) return;
  j.checks.push(...failed.slice(0, NOT_TRIED_LISTED).map((r) => skipped(r, `${UPSTREAM_FAILED}${r.upstreamFailure}`)));
  const more = failed.length - NOT_TRIED_LISTED;
  if (more > 0) j.checks.push({ name: `${more} more exchanges the upstream failed`, state: 'skip' });
  if (j.checks.some((c) => c.state === 'pass' || c.state === 'fail')) return;
  const first = failed[0]!;
  j.skipReason = `${UPSTREAM_FAILED}${failed.length} exchange(s) the upstream failed, the first ${label(first)}: ${first.upstreamFailure}`;
}

/** A create or read that met a failure the guidance names is re-sent (a create: under its own key). */
function judgeRetried(log: readonly RecordedRequest[], injected: readonly RecordedRequest[], after: After): RuleJudgement {
  const met = injected.filter((r) => (r.kind === 'create' || r.kind === 'read') && RETRIED_BY_GUIDANCE.includes(r.injected!));
  const checks = met.map((r) => {
      if (r.kind === 'create' && r.idempotencyKey === undefined) return skipped(r, KEYLESS);
      if (after(r).length) return ok(r, `met ${r.injected}, retried as #${after(r)[0]!.seq}`);
      if (r.kind !== 'create' && r.parallelClient) return skipped(r, PARALLEL);
      const twin = r.kind === 'create' ? sameBodyOtherKey(log, r) : laterSameRead(log, r);
      const what = r.kind === 'create' ? `was never re-sent with its Idempotency-Key ${r.idempotencyKey}` : 'was never retried';
      return bad(r, `${label(r)} met ${describe(r)} and ${what}${twin ? retryHint(log, r, twin) : ''}`, twin ? [r, twin] : [r]);
  });
  const unfollowable = checks.find((c) => c.state === 'skip')?.name.replace(/^#\d+ \S+ \S+: /, '');
  return {
    skipReason: met.length ? `no failure met could be followed on the wire: ${unfollowable}` : `${NOT_EXERCISED}no create or read met a ` +
      `network failure, time-out, 429, 502, 503 or 504`,
    checks,
  };
}

/** The client's next create after `r`, when it carries r's byte-identical body under another key (or none): named in the failure, never credited. */
function sameBodyOtherKey(log: readonly RecordedRequest[], r: RecordedRequest): RecordedRequest | undefined {
  const next = log.find((x) => x.seq > r.seq && x.kind === 'create' && x.idempotencyKey !== r.idempotencyKey);
  return next?.body === r.body ? next : undefined;
}

/** The client's next request on r's method and path, when it is a new operation (something else came in between). */
function laterSameRead(log: readonly RecordedRequest[], r: RecordedRequest): RecordedRequest | undefined {
  return log.find((x) => x.seq > r.seq && x.method === r.method && x.path === r.path && x.identity !== r.identity);
}

/** Why the request named is not the retry of r: another key for a create; another request in between for a read. */
function retryHint(log: readonly RecordedRequest[], r: RecordedRequest, twin: RecordedRequest): string {
  const gap = sentAfter(twin, r);
  if (r.kind !== 'create') {
    const between = log.find((x) => x.seq > r.seq)!;
    return `; ${gap} on the same path after #${between.seq} ${between.method} ${between.path.split('?')[0]} (another operation in ` +
      `between): the next read, not this one's retry`;
  }
  return `; ${gap} with the same body under ${twin.idempotencyKey ? `another key (${twin.idempotencyKey})` : 'no key'}: a create under ` +
    `another key is another create${twin.paymentId ? ` (${twin.paymentId})` : ''}, and a retry must carry ${r.idempotencyKey}`;
}

/**
 * When `later` was sent, against `earlier`'s answer: so long after it, or while `earlier` was still
 * unanswered (then so long after `earlier` was sent). Never a negative span.
 */
function sentAfter(later: RecordedRequest, earlier: RecordedRequest): string {
  const answered = earlier.answeredMs;
  if (answered !== undefined && later.arrivedMs >= answered) {
    return `#${later.seq} was sent ${durationWords(later.arrivedMs - answered)} after #${earlier.seq} was answered`;
  }
  return `#${later.seq} was sent while #${earlier.seq} was still unanswered ` +
    `(${durationWords(later.arrivedMs - earlier.arrivedMs)} after #${earlier.seq} was sent)`;
}

/** Each retry of a create repeats the first attempt: its key (by construction of the identity) and its body. */
function judgeSameKey(injected: readonly RecordedRequest[], after: After): RuleJudgement {
  const failedCreates = injected.filter((r) => r.kind === 'create');
  const judged = failedCreates.filter((r) => r.idempotencyKey === undefined || after(r).length);
  return {
    skipReason: failedCreates.length && failedCreates.every((r) => r.idempotencyKey === undefined) ? `every ` +
      `create ${KEYLESS}` : `${NOT_EXERCISED}no create was re-sent under its Idempotency-Key after a failure`,
    checks: judged.map((r) => {
      if (r.idempotencyKey === undefined) return skipped(r, KEYLESS);
      const changed = after(r).find((x) => x.body !== r.body);
      return changed
        ? bad(
          r,
          `retry #${changed.seq} under the key ${r.idempotencyKey} carried another body than the first attempt (the service refuses it ` +
            `409 idempotency_conflict: the create is never completed)`,
          [r, ...after(r)],
        )
        : ok(r, `every retry carried the first key ${r.idempotencyKey} and body`);
    }),
  };
}

function judgeRetryAfter(injected: readonly RecordedRequest[], after: After): RuleJudgement {
  return {
    skipReason: `${NOT_EXERCISED}no request answered 429 was retried`,
    checks: injected.filter((r) => r.injected === '429' && after(r).length).map((r) => {
      const next = after(r)[0]!;
      const waited = next.arrivedMs - (r.answeredMs ?? r.arrivedMs);
      const wanted = (r.retryAfterS ?? 0) * 1000;
      if (waited < 0 || r.answeredMs === undefined) return bad(
        r,
        `${label(r)} met a 429 with Retry-After: ${r.retryAfterS} (wanted ≥ ${wanted} ms); ${sentAfter(next, r)}`,
        [r, ...after(r)],
      );
      return waited >= wanted - RETRY_AFTER_SLACK_MS
        ? ok(r, `Retry-After: ${r.retryAfterS}, retried after ${durationWords(waited)}`)
        : bad(
          r,
          `${label(r)} was retried ${durationWords(waited)} after a 429 with Retry-After: ${r.retryAfterS} (wanted ≥ ${wanted} ms)`,
          [r, ...after(r)],
        );
    }),
  };
}

function judgeNo4xxRetry(log: readonly RecordedRequest[], after: After): RuleJudgement {
  const final4xx = log.filter((r) => r.method === 'POST' && r.status !== undefined && r.status >= 400 && r.status < 500 && r.status !== 429 && r.errorCode !== 'idempotency_in_progress');
  return {
    skipReason: `${NOT_EXERCISED}no create or cancel was answered 400 or another final 4xx`,
    checks: final4xx.map((r) => {
      const again = after(r).find((x) => x.body === r.body);
      return again ? bad(
        r,
        `${label(r)} answered ${r.status}${r.injected ? ' (injected)' : ''} was re-sent unchanged as #${again.seq}`,
        [r, ...after(r)],
      ) : ok(r, `answered ${r.status}, not re-sent`);
    }),
  };
}

/** An OBSERVE rule: whether each of `met` was retried, and under which key. */
function observeRetry(met: readonly RecordedRequest[], after: After, skipReason: string): RuleJudgement {
  const what = (r: RecordedRequest) => (after(r).length ? `retried as #${after(r)[0]!.seq}` : 'not retried (or retried under another ' +
    'key: another create)');
  return {
    skipReason,
    checks: met.map((r) => ok(r, what(r))),
    observed: Object.fromEntries(met.map((r) => [label(r), what(r)])),
  };
}

function describe(r: RecordedRequest): string {
  if (r.source === 'service') return describeObserved(r);
  const base = describeInjection(r.injected!, r.retryAfterS);
  return r.injected === 'timeout' && r.clientGaveUpAfterMs !== undefined ? `${base.replace(
    / \(injected\)$/,
    '',
  )}; the client gave up after ${r.clientGaveUpAfterMs} ms (injected)` : base;
}

/** A failure the service itself gave (relayed by the proxy), in the words of the wire. */
function describeObserved(r: RecordedRequest): string {
  switch (r.injected) {
    case '429': return `429 rate_limit_exceeded, Retry-After: ${r.retryAfterS ?? '(none)'} (the service's answer)`;
    case '409-in-progress': return '409 idempotency_in_progress (the service\'s answer)';
    default: return `${r.status ?? r.injected}${r.errorCode ? ` ${r.errorCode}` : ''} (the service's answer)`;
  }
}

function label(r: RecordedRequest): string {
  return `#${r.seq} ${r.method} ${r.path.split('?')[0]}`;
}

function ok(r: RecordedRequest, message: string): CheckOutcome {
  return { name: `${label(r)}: ${message}`, state: 'pass', requests: 1 };
}

function skipped(r: RecordedRequest, message: string): CheckOutcome {
  return { name: `${label(r)}: ${message}`, state: 'skip', requests: 1 };
}

function bad(r: RecordedRequest, message: string, sequence: readonly RecordedRequest[]): CheckOutcome {
  // The check's name is the request's label already; the reason reads "#3 POST /v1/payments: met 502 …".
  const short = message.startsWith(`${label(r)} `) ? message.slice(label(r).length + 1) : message;
  return {
    name: label(r),
    state: 'fail',
    message: short,
    requests: sequence.length,
    evidence: [{ kind: 'mismatch', message }, ...sequenceEvidence(sequence)],
  };
}

/** The request sequence of one operation, the injected failure marked in a note before its exchange. */
export function sequenceEvidence(sequence: readonly RecordedRequest[]): Evidence[] {
  return sequence.slice(0, 8).flatMap((r): Evidence[] => [
    {
      kind: 'note',
      message: `#${r.seq} +${r.arrivedMs} ms ${r.method} ${r.path} key=${r.idempotencyKey ?? '(none)'} ` +
        `→ ${r.injected ? describe(r).toUpperCase() : r.status ?? 'no answer'}`,
    },
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
  if (r.status !== undefined) ex.response = {
    status: r.status,
    headers: r.injected === '429' ? { 'retry-after': String(r.retryAfterS) } : {},
    body: r.answerBody ?? '',
  };
  else ex.transportError = r.injected ? describe(r) : 'no answer recorded';
  return ex;
}
