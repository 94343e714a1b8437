/**
 * esid: Limits — "Rate limiting exists per key: the response is 429 rate_limit_exceeded with an
 * integer Retry-After header. The request thresholds and window: not shown."; Errors —
 * "rate_limit_exceeded 429: too many requests for the key; honour the Retry-After header (integer)".
 *
 * Every rule of the area is in this one file, so the tests run one after the other and no two
 * bursts overlap. Bursts go to keys.test_rate_limited only (other suites share keys.test), are
 * bounded by probes.rate_limit_max_requests (default 200) and by time, and stop at the first 429.
 * A limit not reached within those bounds is SKIP with the count, never FAIL (thresholds are not shown).
 */
import { sleep } from '../../service/harness/worker/wait-clock.ts';
import type { ApiResponse } from '../../core/client.ts';
import { ruleTest, type RuleContext } from '../../service/harness/worker/rule-test.ts';
import { Mismatch, expectError, expectStatus, expectTrue } from '../../service/harness/worker/expect.ts';
import { cancelIfPending, expectExactlyOne } from '../_shared/by-external-id.ts';
import { burst, maxRequests, probe, retryAfter, type Burst } from '../_shared/throttle.ts';

/** The longest Retry-After LIMIT-RECOVERY waits. */
const MAX_WAIT_S = 60;
/** Slack added to every wait for clock granularity between us and the target. */
const MARGIN_MS = 250;

/** A burst that reached 429, else SKIP (the threshold is not shown) naming the count. */
async function limitedBurst(t: RuleContext, key: string): Promise<Burst> {
  const b = await burst(t, key);
  if (b.limited.length === 0) {
    const why = b.unexpected.length
      ? `the burst stopped at an answer ${b.unexpected[0]!.status} ${b.unexpected[0]!.json?.error?.code ?? ''} before any 429 (see LIMIT-RATE-429)`
      : `no 429 within ${b.sent} requests in ${b.elapsedMs} ms (probes.rate_limit_max_requests ${maxRequests(t)})`;
    t.skip(`keys.test_rate_limited: ${why}`);
  }
  return b;
}

/** Waits until `key` is served again (bounded), so a burst starts from a fresh limit. */
async function untilFree(t: RuleContext, key: string): Promise<void> {
  const deadline = Date.now() + (MAX_WAIT_S + 5) * 1000;
  for (let i = 0; i < 20 && Date.now() < deadline; i++) {
    const r = await probe(t, key);
    if (r.status !== 429) return;
    const ra = retryAfter(r);
    if (ra !== null && ra > MAX_WAIT_S) t.skip(`keys.test_rate_limited is limited with Retry-After ${ra} s, above the ${MAX_WAIT_S} s this probe waits`);
    await sleep((ra ?? 1) * 1000 + MARGIN_MS);
  }
  t.skip(`keys.test_rate_limited stayed limited for ${MAX_WAIT_S} s`);
}

ruleTest('LIMIT-RATE-THRESHOLD', async (t) => {
  const key = t.keys.test_rate_limited!;
  await untilFree(t, key);
  const b = await burst(t, key, 1); // one at a time: the exact count
  const first = b.limited[0];
  t.observe('threshold', {
    requests_served_before_429: first ? b.ok + 1 : null, // + the request untilFree sent
    reached_429: first !== undefined,
    requests_sent: b.sent + 1,
    elapsed_ms: b.elapsedMs,
    retry_after: first ? first.headers['retry-after'] ?? null : null,
    bound: maxRequests(t),
  });
}, { timeout: 120_000, inOrder: true });

ruleTest('LIMIT-RATE-429', async (t) => {
  const key = t.keys.test_rate_limited!;
  const b = await burst(t, key);
  const odd = b.unexpected[0];
  if (odd) {
    throw new Mismatch(
      `a burst of valid GET /payments?limit=1 on one key answered ${odd.status} ${odd.json?.error?.code ?? ''} after ${b.ok} successes; expected 200, or 429 rate_limit_exceeded once the limit is reached`,
      { status: [200, 429] },
      { status: odd.status, code: odd.json?.error?.code ?? null },
    );
  }
  if (b.limited.length === 0) t.skip(`keys.test_rate_limited: no 429 within ${b.sent} requests in ${b.elapsedMs} ms (probes.rate_limit_max_requests ${maxRequests(t)})`);
  for (const r of b.limited) expectError(r, 429, ['rate_limit_exceeded'], `request ${b.ok + 1}+ of a burst`);
  t.note(`429 rate_limit_exceeded after ${b.ok} served requests (${b.sent} sent in ${b.elapsedMs} ms)`);
}, { timeout: 60_000, inOrder: true });

ruleTest('LIMIT-RETRY-AFTER', async (t) => {
  const key = t.keys.test_rate_limited!;
  const b = await limitedBurst(t, key);
  // A few more while limited, so more than one 429 is checked.
  for (let i = 0; i < 3; i++) {
    const r = await probe(t, key);
    if (r.status === 429) b.limited.push(r);
  }
  for (const r of b.limited) {
    const v = r.headers['retry-after'];
    expectTrue(retryAfter(r) !== null, `a 429 carried Retry-After ${JSON.stringify(v ?? null)}, not a non-negative integer number of seconds`, 'integer seconds', v ?? null);
  }
  t.note(`${b.limited.length} answers 429, Retry-After ${[...new Set(b.limited.map((r) => r.headers['retry-after']))].join(', ')}`);
}, { timeout: 60_000, inOrder: true });

ruleTest('LIMIT-PER-KEY', async (t) => {
  const limitedKey = t.keys.test_rate_limited!;
  // keys.test has its own limit, which the rest of the run may have used up: a 429 on it counts
  // only when it comes every time, each time after keys.test was served (a model-client read that
  // waits out its own 429s) and after waiting out the Retry-After of the previous one.
  const blocked: ApiResponse[] = [];
  for (let attempt = 1; attempt <= 3; attempt++) {
    await t.client.listPayments(t.keys.test, { limit: 1 });
    await limitedBurst(t, limitedKey);
    const other = await probe(t, t.keys.test);
    if (other.status === 429) {
      blocked.push(other);
      await sleep((retryAfter(other) ?? 1) * 1000 + MARGIN_MS);
      continue;
    }
    expectStatus(other, 200, 'keys.test while keys.test_rate_limited is limited');
    // Conclusive only if the limited key was still limited after that request.
    const still = await probe(t, limitedKey);
    if (still.status === 429) {
      t.note(`keys.test served (200) between two 429s of keys.test_rate_limited (attempt ${attempt})`);
      return;
    }
  }
  if (blocked.length === 3) {
    const last = blocked[2]!;
    throw new Mismatch('keys.test answered 429 while keys.test_rate_limited (another key of the same business) was limited, 3 times out of 3, each time right after keys.test had been served: the limit is not per key', { status: 200 }, { status: 429, code: last.json?.error?.code ?? null, retry_after: last.headers['retry-after'] ?? null });
  }
  t.skip(`keys.test_rate_limited was no longer limited right after the keys.test request, or keys.test met its own limit (${blocked.length} of 3), 3 times: inconclusive`);
}, { timeout: 90_000, inOrder: true });

/** While limited, one probe per this interval, to meet the moment the Retry-After drops by a second. */
const TICK_PROBE_MS = 100;
/** At most this many such probes, and for at most this long: a whole-second Retry-After ticks within one second. */
const TICK_PROBES = 14;
/**
 * The watch ends after this long whatever the count: on a busy machine 14 probes took over 2 s, and a
 * Retry-After that never ticks (a whole window, --variant alt) saw its 2 s window end under the
 * probes every time (LIMIT-RECOVERY SKIP, the run incomplete: seen in CI on alt seed 202).
 */
const TICK_WATCH_MS = 1_200;
/**
 * A tick is met precisely when the answers on either side of it came at most this far apart. On a
 * busy machine a probe can come late (the suite's own process stalled), and a tick met 800 ms late
 * leaves a rounded-down Retry-After short by only 200 ms, which the margin hides: such a moment is
 * chosen again (a planted floor was missed that way under three concurrent `npm test`s).
 */
const PRECISE_TICK_MS = 400;
/** Bursts LIMIT-RECOVERY may spend to meet a tick precisely. */
const TICK_TRIES = 4;

/**
 * The 429 whose Retry-After LIMIT-RECOVERY waits: the first met after the Retry-After given while
 * limited drops by one. A Retry-After rounded down (or otherwise short) is short by nearly a whole
 * second right after such a tick, and by whatever fraction is left at any other moment: the moment
 * is chosen by observation, not left to how long the burst happened to take. Null when the key was
 * served again before a tick (the window ended); the burst's 429 when no tick came within the probes.
 */
interface Refusal {
  res: ApiResponse;
  ticked: boolean;
  /** How far apart the answers on either side of the tick came (ms); 0 when no tick was seen. */
  spanMs: number;
}

async function tickedRefusal(t: RuleContext, key: string, last: ApiResponse): Promise<Refusal | null> {
  let prev = retryAfter(last);
  let res = last;
  let prevAt = performance.now();
  const watchEnds = prevAt + TICK_WATCH_MS;
  for (let i = 0; i < TICK_PROBES && prev !== null && performance.now() < watchEnds; i++) {
    await sleep(TICK_PROBE_MS);
    const r = await probe(t, key);
    const at = performance.now();
    if (r.status !== 429) return null;
    const ra = retryAfter(r);
    res = r;
    if (ra === null || ra < prev) return { res: r, ticked: ra !== null, spanMs: ra === null ? 0 : Math.round(at - prevAt) };
    prev = ra;
    prevAt = at;
  }
  return { res, ticked: false, spanMs: 0 };
}

/** Whether a refusal is the moment to wait from: no tick was seen (the burst's 429), or it was met precisely. */
const settled = (r: Refusal | null): r is Refusal => r !== null && (!r.ticked || r.spanMs <= PRECISE_TICK_MS);

/** Tries at provoking a 429 on a create: a window may end between the burst and the create. */
const THROTTLE_TRIES = 3;

interface ThrottledCreate {
  /** Sends the create again: the same Idempotency-Key and the same body. */
  send: () => Promise<ApiResponse>;
  externalId: string;
  res: ApiResponse;
}

/**
 * LIMIT-RECOVERY's wait, shared: right after the 429 whose Retry-After it waits, it sends a create
 * on the same key (the client guidance's case: a create throttled), waits once for both, and once
 * served again retries that create with its key and body. LIMIT-THROTTLED-CREATE-RETRY, next in this
 * file, judges what the retry was answered; run alone (`--rule`), it provokes and waits its own.
 */
interface SharedRetry {
  readonly throttled: ThrottledCreate;
  readonly waits: readonly number[];
  readonly after: ApiResponse;
}
let sharedRetry: SharedRetry | null = null;

/** A create on `key` sent at once: kept when it is answered 429 (else cancelled if made). */
async function createWhileLimited(t: RuleContext, key: string): Promise<ThrottledCreate | null> {
  const externalId = t.externalId('throttled');
  const body = { amount: '10.00', external_id: externalId, metadata: t.metadata() };
  // acceptThrottle: the 429 is provoked on purpose and returned, never waited out by the client.
  const request = { method: 'POST', path: '/v1/payments', key, json: body, idempotencyKey: `${externalId}-key`, acceptThrottle: true,
    noRetry: true } as const;
  const send = () => t.client.request(request);
  const res = await send();
  if (res.status === 201 && typeof res.json?.id === 'string') await cancelIfPending(t, t.keys.test, [res.json.id]);
  return res.status === 429 ? { send, externalId, res } : null;
}

ruleTest('LIMIT-RECOVERY', async (t) => {
  const key = t.keys.test_rate_limited!;
  let chosen: Refusal | null = null;
  // More than one try: a window may end before its Retry-After ticks (the burst met it late), or
  // the tick may be met imprecisely (a late probe); the last one met is kept. The first try starts
  // from the key as the tests before left it (limited, mostly: the moment is chosen by the tick,
  // not by where the window began); each later one from a fresh limit, so its Retry-After counts
  // a full window.
  for (let attempt = 0; attempt < TICK_TRIES && !settled(chosen); attempt++) {
    if (attempt > 0) await untilFree(t, key);
    const b = await limitedBurst(t, key);
    const first = b.limited[b.limited.length - 1]!;
    const ra = retryAfter(first);
    if (ra === null) return t.skip(`the 429 carried Retry-After ${JSON.stringify(first.headers['retry-after'] ?? null)}: no integer to wait (LIMIT-RETRY-AFTER)`);
    if (ra > MAX_WAIT_S) t.skip(`Retry-After is ${ra} s, above the ${MAX_WAIT_S} s LIMIT-RECOVERY waits`);
    chosen = (await tickedRefusal(t, key, first)) ?? chosen;
  }
  if (chosen === null) return t.skip(`the key was served again before its Retry-After dropped by a second, ${TICK_TRIES} times: the window is too short to choose the moment`);
  const last = chosen.res;
  if (retryAfter(last) === null) return t.skip(`the 429 carried Retry-After ${JSON.stringify(last.headers['retry-after'] ?? null)}: no integer to wait (LIMIT-RETRY-AFTER)`);
  // Waited out once more if the answer is a 429 with a Retry-After of its own: a service may limit
  // in more than one place (a gateway and the application), each answering for its own window. A
  // second 429 saying Retry-After 0 is no other window: the service refuses and says the wait is over.
  const waits: number[] = [];
  let after = last;
  sharedRetry = null;
  const throttled = await createWhileLimited(t, key);
  for (let round = 0; round < 2 && after.status === 429; round++) {
    const wait = retryAfter(after);
    if (wait === null || wait > MAX_WAIT_S) break;
    if (round > 0 && wait === 0) {
      throw new Mismatch(`still 429 after waiting the Retry-After of ${waits[0]} s (+${MARGIN_MS} ms), and that 429 said Retry-After 0: the first Retry-After was short${chosen.ticked ? ' (met right after the Retry-After dropped by a second)' : ''}`, { status: 200 }, { status: 429, retry_after: '0' });
    }
    waits.push(wait);
    await sleep(wait * 1000 + MARGIN_MS);
    after = await probe(t, key);
  }
  if (after.status === 429) {
    throw new Mismatch(`still 429 after waiting the Retry-After of ${waits.join(' s, then ')} s (+${MARGIN_MS} ms each)`, { status: 200 }, { status: 429, retry_after: after.headers['retry-after'] ?? null });
  }
  expectStatus(after, 200, `keys.test_rate_limited after waiting Retry-After ${waits.join(' s, then ')} s`);
  // The throttled create's Retry-After ran in the same window, from a moment no earlier than the probe's.
  if (throttled !== null && waits.length === 1 && (retryAfter(throttled.res) ?? Infinity) <= waits[0]!) {
    sharedRetry = { throttled, waits, after: await throttled.send() };
  }
  t.note(`served again after waiting Retry-After ${waits.join(' s, then ')} s, met ${chosen.ticked ? `right after it dropped by a second (answers ${chosen.spanMs} ms apart${chosen.spanMs > PRECISE_TICK_MS ? ', imprecise after every try' : ''})` : 'at the end of the burst (no tick seen)'}`);
}, { timeout: 180_000, inOrder: true });

/** A create answered 429 on `key`, right after a burst limited it; SKIP when none is met. */
async function throttledCreate(t: RuleContext, key: string): Promise<ThrottledCreate> {
  for (let i = 0; i < THROTTLE_TRIES; i++) {
    await limitedBurst(t, key);
    const made = await createWhileLimited(t, key);
    if (made !== null) return made;
  }
  return t.skip(`a create right after a burst that reached 429 was never answered 429 (${THROTTLE_TRIES} tries)`);
}

/** The retry after Retry-After: LIMIT-RECOVERY's when it made one, else one of its own (provoked and waited here). */
async function retryOfThrottled(t: RuleContext, key: string): Promise<{ throttled: ThrottledCreate; waits: number[]; after: ApiResponse }> {
  if (sharedRetry !== null) {
    const shared = sharedRetry;
    sharedRetry = null;
    t.note('the throttled create was sent and retried inside LIMIT-RECOVERY\'s wait (one wait for both)');
    return { throttled: shared.throttled, waits: [...shared.waits], after: shared.after };
  }
  const throttled = await throttledCreate(t, key);
  // The client guidance's retry: the same key and body, after Retry-After; a 429 met again is waited
  // out once more (a second window, as LIMIT-RECOVERY allows), then the answer is judged.
  const waits: number[] = [];
  let after = throttled.res;
  for (let round = 0; round < 2 && after.status === 429; round++) {
    const wait = retryAfter(after);
    const given = JSON.stringify(after.headers['retry-after'] ?? null);
    if (wait === null) return t.skip(`the 429 carried Retry-After ${given}: no integer to wait (LIMIT-RETRY-AFTER)`);
    if (wait > MAX_WAIT_S) return t.skip(`Retry-After is ${wait} s, above the ${MAX_WAIT_S} s this rule waits`);
    waits.push(wait);
    await sleep(wait * 1000 + MARGIN_MS);
    after = await throttled.send();
  }
  return { throttled, waits, after };
}

ruleTest('LIMIT-THROTTLED-CREATE-RETRY', async (t) => {
  const key = t.keys.test_rate_limited!;
  const { throttled, waits, after } = await retryOfThrottled(t, key);
  const waited = `after waiting Retry-After ${waits.join(' s, then ')} s`;
  if (after.status === 201 && typeof after.json?.id === 'string') await cancelIfPending(t, t.keys.test, [after.json.id]);
  if (after.status === 409 && after.json?.error?.code === 'idempotency_in_progress') {
    throw new Mismatch(
      `the retry of a create refused 429, with the same Idempotency-Key and body ${waited}, answered 409 idempotency_in_progress: the ` +
        'throttled request still holds its key (Rule 3 applies only while a request is still processing; the 429 ended it)',
      { status: 201 },
      { status: 409, code: 'idempotency_in_progress' },
    );
  }
  const replayed = after.headers['idempotent-replayed'] !== undefined ? ', marked as a replay' : '';
  const never = after.status === 429 ? `${replayed} (the client guidance's retry can never succeed)` : '';
  expectStatus(after, 201, `the retry of a create refused 429, with the same Idempotency-Key and body ${waited}${never}`);
  await expectExactlyOne(t, t.keys.test, throttled.externalId, after.json.id, 'after the retry of the throttled create');
  t.note(`a create refused 429 was served (201) when retried with its key and body ${waited}`);
}, { timeout: 180_000, inOrder: true });
