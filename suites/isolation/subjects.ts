/**
 * The Payments the isolation suite probes with. Test ones are created (and cancelled at the end
 * by the harness). A Live one is created only when probes.live_writes is true (and cancelled by
 * the test); otherwise an existing one is found by listing with keys.live, reads only.
 */
import type { RuleContext } from '../../service/harness/worker/rule-test.ts';
import { expectStatus } from '../../service/harness/worker/expect.ts';
import { cancelIfPending } from '../_shared/by-external-id.ts';

export type TestState = 'PENDING' | 'PAID' | 'CANCELLED';

/** A marked Test Payment of business A (keys.test) brought to `state` with the test helpers. */
export async function testPayment(t: RuleContext, state: TestState = 'PENDING', key = t.keys.test): Promise<any> {
  const p = await t.createPayment({}, key);
  if (state === 'PENDING') return p;
  const res = state === 'PAID' ? await t.client.simulateSucceeded(key, p.id) : await t.client.simulateCancelled(key, p.id);
  expectStatus(res, 200, `setup: bringing a Test Payment to ${state}`);
  return res.json;
}

export interface LiveSubject {
  payment: any;
  /** Created by this test (then cancelled by `release`), or found by listing. */
  created: boolean;
  release(): Promise<void>;
}

/**
 * A Live Payment of business A. `forWrites`: the probe sends writes with the wrong key; a found
 * (not created) Payment is then one that is not PENDING, so even a faulty target that let the write
 * through could not move a real Live Payment. Returns the SKIP reason when there is none.
 */
export async function liveSubject(t: RuleContext, forWrites: boolean): Promise<LiveSubject | string> {
  const live = t.keys.live!;
  if (t.profile.probes?.live_writes === true) {
    const payment = await t.createPayment({ amount: '10.00' }, live);
    return { payment, created: true, release: () => cancelIfPending(t, live, [payment.id]) };
  }
  let after: string | undefined;
  for (let page = 0; page < 3; page++) {
    const res = await t.client.listPayments(live, { limit: 100, starting_after: after });
    if (res.status !== 200 || !Array.isArray(res.json?.data)) break;
    const data: any[] = res.json.data;
    const found = data.find((p) => p?.livemode === true && typeof p.id === 'string' && (!forWrites || p.status !== 'PENDING'));
    if (found) return { payment: found, created: false, release: async () => {} };
    if (!res.json.has_more || data.length === 0) break;
    after = data[data.length - 1].id;
  }
  return `probes.live_writes is false and keys.live lists no ${forWrites ? 'non-PENDING ' : ''}Live Payment to probe with (reads only)`;
}
