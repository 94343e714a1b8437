/**
 * esid: Endpoints › Rules, Rules 5 and 7 — "A Test key never sees Live Payments and a Live key
 * never sees Test Payments"; getPayment, cancelPayment and the test helpers answer 404
 * payment_not_found for an id that does not exist for the key's business and environment.
 * Live writes only when probes.live_writes is true; otherwise a Live Payment found by listing.
 */
import fc from 'fast-check';
import { ruleTest, type RuleContext } from '../../service/harness/worker/rule-test.ts';
import { expectEqual, expectError, expectStatus, expectTrue } from '../../service/harness/worker/expect.ts';
import { liveSubject, testPayment, type TestState } from './subjects.ts';
import { share } from '../../service/harness/worker/depth.ts';
import { TEST_KEY_ON_LIVE_CASES } from '../../service/generators/cases/states.ts';

const states = fc.constantFrom<TestState>('PENDING', 'PAID', 'CANCELLED');

const TEST_KEY_READS = [
  'overview.test-live-cannot-see-each-other#test-key-cannot-see-live', 'rules.test-live-never-see-each-other#test-key',
];

/** No Live Payment to probe the Test key with: its direction's obligations are not tried (the Live key's pass is not theirs). */
function noLiveSubject(t: RuleContext, why: string, obligations: readonly string[]): void {
  for (const o of obligations) t.notTried(o, `no Live Payment to probe the Test key with: ${why}`, ['probes.live_writes']);
  t.skip(why);
}

ruleTest('ISO-TEST-LIVE-GET', async (t) => {
  await t.property(states, async (state) => {
    const p = await testPayment(t, state);
    const res = await t.client.getPayment(t.keys.live!, p.id);
    expectError(res, 404, ['payment_not_found'], `keys.live reading a ${state} Test Payment`);
  }, { runs: share(t.runs, 0.03) });
}, { title: 'a Live key gets 404 payment_not_found for a Test Payment' });

ruleTest('ISO-TEST-LIVE-GET', async (t) => {
  const subject = await liveSubject(t, false);
  if (typeof subject === 'string') return noLiveSubject(t, subject, TEST_KEY_READS);
  try {
    const res = await t.client.getPayment(t.keys.test, subject.payment.id);
    expectError(res, 404, ['payment_not_found'], `keys.test reading a Live Payment (${subject.created ? 'created' : 'found by listing'})`);
  } finally {
    await subject.release();
  }
}, { title: 'a Test key gets 404 payment_not_found for a Live Payment' });

ruleTest('ISO-TEST-LIVE-LIST', async (t) => {
  const p = await testPayment(t);
  const filtered = await t.client.listPayments(t.keys.live!, { external_id: p.external_id });
  expectStatus(filtered, 200, 'keys.live listing by a Test Payment\'s external_id');
  const hit = (filtered.json?.data ?? []).find((x: any) => x?.id === p.id || x?.livemode !== true);
  expectTrue(hit === undefined, `keys.live listed ${hit?.id} (livemode ${hit?.livemode}) under a Test Payment's external_id`, [], hit);
  const page = await t.client.listPayments(t.keys.live!, { limit: 100 });
  expectStatus(page, 200, 'keys.live listing');
  const wrong = (page.json?.data ?? []).filter((x: any) => x?.livemode !== true || x?.id === p.id).map((x: any) => x?.id);
  expectEqual(wrong, [], 'Payments of keys.live\'s list that are not livemode true');
}, { title: 'a Live key\'s list holds no Test Payment' });

ruleTest('ISO-TEST-LIVE-LIST', async (t) => {
  const subject = await liveSubject(t, false);
  if (typeof subject === 'string') return noLiveSubject(t, subject, TEST_KEY_READS);
  try {
    const live = subject.payment;
    if (typeof live.external_id === 'string') {
      const filtered = await t.client.listPayments(t.keys.test, { external_id: live.external_id });
      expectStatus(filtered, 200, 'keys.test listing by a Live Payment\'s external_id');
      const hit = (filtered.json?.data ?? []).find((x: any) => x?.id === live.id || x?.livemode !== false);
      expectTrue(hit === undefined, `keys.test listed ${hit?.id} (livemode ${hit?.livemode}) under a Live Payment's external_id`, [], hit);
    }
    const page = await t.client.listPayments(t.keys.test, { limit: 100 });
    expectStatus(page, 200, 'keys.test listing');
    const wrong = (page.json?.data ?? []).filter((x: any) => x?.livemode !== false || x?.id === live.id).map((x: any) => x?.id);
    expectEqual(wrong, [], 'Payments of keys.test\'s list that are not livemode false');
  } finally {
    await subject.release();
  }
}, { title: 'a Test key\'s list holds no Live Payment' });

ruleTest('ISO-TEST-LIVE-WRITE', async (t) => {
  await t.property(fc.constant(null), async () => {
    const p = await testPayment(t);
    const res = await t.client.cancelPayment(t.keys.live!, p.id);
    expectError(res, 404, ['payment_not_found'], 'keys.live cancelling a PENDING Test Payment');
    const after = await t.client.getPayment(t.keys.test, p.id);
    expectStatus(after, 200, 'reading the Test Payment back');
    expectEqual(after.json?.status, 'PENDING', 'status of the Test Payment after keys.live tried to cancel it');
  }, { runs: 1 });
}, { title: 'a Live key cannot cancel a Test Payment' });

ruleTest('ISO-TEST-LIVE-WRITE', async (t) => {
  const subject = await liveSubject(t, true);
  if (typeof subject === 'string') {
    return noLiveSubject(t, subject, ['overview.test-live-cannot-see-each-other#test-key-cannot-modify-live']);
  }
  try {
    const live = subject.payment;
    const send = {
      cancelPayment: () => t.client.cancelPayment(t.keys.test, live.id),
      simulatePaymentSucceeded: () => t.client.simulateSucceeded(t.keys.test, live.id),
      simulatePaymentCancelled: () => t.client.simulateCancelled(t.keys.test, live.id),
    } as const;
    await t.cases(TEST_KEY_ON_LIVE_CASES, async (op) => {
      const res = await send[op]();
      expectError(res, 404, ['payment_not_found'], `keys.test ${op} on a ${live.status} Live Payment`);
      const after = await t.client.getPayment(t.keys.live!, live.id);
      expectStatus(after, 200, 'reading the Live Payment back with keys.live');
      expectEqual(after.json?.status, live.status, `status of the Live Payment after keys.test ${op}`);
    }, { concurrency: 1 });
  } finally {
    await subject.release();
  }
}, { title: 'a Test key cannot cancel or complete a Live Payment' });
