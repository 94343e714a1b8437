/**
 * MODEL-SEQUENCES' throttled create (docs/rulings.md, "A refused request leaves no trace"):
 * keys.test_rate_limited (A, Test, a limit of its own, used only to be throttled) is burst until it
 * answers 429, then a create with a new Idempotency-Key and one of the sequence's external_ids is
 * sent while it is limited. When that create is answered 429, the client guidance's retry (the same
 * key and body, after Retry-After) must be answered as the model answers a first create: a new
 * PENDING Payment, or 409 external_id_conflict when the model holds the external_id; never 409
 * idempotency_in_progress (a throttled request holds nothing). A create the window let through is
 * judged as any create; a retry still throttled after two waits is LIMIT-RECOVERY's to judge.
 */
import { sleep } from '../../service/harness/worker/wait-clock.ts';
import { burst, retryAfter } from '../_shared/throttle.ts';
import { judgeCreate, passed, tally, type Cmd, type Model, type Real } from './model.ts';

/** The longest Retry-After the model waits, and the slack added to each wait. */
const MAX_WAIT_S = 60;
const MARGIN_MS = 250;

export class ThrottleCmd implements Cmd {
  constructor(readonly ext: string | null) {}
  check(): boolean { return true; }
  async run(m: Model, r: Real): Promise<void> {
    const rl = r.keys.rl;
    if (rl === undefined) return tally(r, 'throttle: the profile has no keys.test_rate_limited');
    const b = await burst(r.t, rl.key);
    if (b.limited.length === 0) return tally(r, 'throttle: no 429 within the burst\'s bounds');
    const body = {
      amount: '10.00', ...(this.ext === null ? {} : { external_id: `${r.prefix}-${this.ext}` }), metadata: r.t.metadata({ suite: 'model' }),
    };
    const idempotencyKey = `${r.prefix}-t${++r.creates}`;
    // acceptThrottle: the 429 is provoked on purpose and returned, never waited out by the client.
    const request = {
      method: 'POST', path: '/v1/payments', key: rl.key, json: body, idempotencyKey, acceptThrottle: true, noRetry: true,
    } as const;
    let res = await r.t.client.request(request);
    if (res.status !== 429) {
      judgeCreate(m, r, `${this} (not throttled: the window had ended)`, 'rl', body, idempotencyKey, res);
      return tally(r, 'throttle: the create was not throttled');
    }
    const said = `429 Retry-After ${res.headers['retry-after'] ?? '(none)'} after a burst of ${b.sent}`;
    passed(r, `${this} → ${said}`, 'throttle: create answered 429');
    const waits: number[] = [];
    for (let round = 0; round < 2 && res.status === 429; round++) {
      const wait = retryAfter(res);
      if (wait === null || wait > MAX_WAIT_S) return tally(r, 'throttle: no Retry-After the model waits (LIMIT-RETRY-AFTER judges it)');
      waits.push(wait);
      await sleep(wait * 1000 + MARGIN_MS);
      res = await r.t.client.request(request);
    }
    if (res.status === 429) return tally(r, 'throttle: still 429 after two waits (LIMIT-RECOVERY judges it)');
    judgeCreate(m, r, `retry of the throttled create, same key and body, after Retry-After ${waits.join(' s, then ')} s`, 'rl', body,
      idempotencyKey, res);
    tally(r, 'throttle: retry after Retry-After');
  }
  toString(): string { return `throttledCreate(ext=${this.ext ?? 'none'})`; }
}
