/**
 * esid: Endpoints › Rules, Rule 6 — "A live secret key calling a /test_helpers path answers 404,
 * as if the route did not exist." Whatever the id (a real Test Payment's, a Live Payment's, an
 * unknown one), a POST answers 404 not_found and nothing changes. Another method breaks Rule 8 as
 * well, so 405 method_not_allowed is accepted there too (which one wins is recorded).
 */
import fc from 'fast-check';
import { ruleTest } from '../../service/harness/worker/rule-test.ts';
import { expectEqual, expectError, expectStatus } from '../../service/harness/worker/expect.ts';
import { liveSubject, testPayment } from './subjects.ts';
import { share } from '../../service/harness/worker/depth.ts';

ruleTest('ISO-LIVE-KEY-TEST-HELPERS', async (t) => {
  const live = t.keys.live!;
  const testP = await testPayment(t);
  // A Live id only where the write could not move a real Live Payment (created here, or not PENDING).
  const subject = await liveSubject(t, true);
  if (typeof subject === 'string') t.note(`no Live Payment id tried: ${subject}`);
  try {
    const kinds: fc.Arbitrary<{ kind: string; id: string }>[] = [
      fc.constant({ kind: 'a real Test Payment id', id: testP.id }),
      fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/).map((id) => ({ kind: 'an unknown id', id })),
    ];
    if (typeof subject !== 'string') kinds.push(fc.constant({ kind: 'a Live Payment id', id: subject.payment.id }));
    const cases = fc.tuple(
      fc.constantFrom('succeed', 'cancel'),
      fc.oneof(...kinds),
      fc.oneof({ weight: 4, arbitrary: fc.constant('POST') }, { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT', 'DELETE') }),
    );
    const otherMethods: Record<string, string> = {};
    await t.property(cases, async ([action, { kind, id }, method]) => {
      const res = await t.client.request({ method, path: `/v1/test_helpers/payments/${encodeURIComponent(id)}/${action}`, key: live });
      const what = `keys.live ${method} /test_helpers/payments/{id}/${action} with ${kind}`;
      if (method === 'POST') return expectError(res, 404, ['not_found'], what);
      // Another method also breaks Rule 8 (405): both apply, precedence is not shown.
      if (res.status === 405) expectError(res, 405, ['method_not_allowed'], what);
      else expectError(res, 404, ['not_found'], what);
      otherMethods[method] = `${res.status} ${res.json?.error?.code ?? ''}`.trim();
    }, { runs: share(t.runs, 0.16) });
    if (Object.keys(otherMethods).length) t.observe('live_key_other_methods_on_test_helpers', otherMethods);
    const after = await t.client.getPayment(t.keys.test, testP.id);
    expectStatus(after, 200, 'reading the Test Payment back');
    expectEqual(after.json?.status, 'PENDING', 'status of the Test Payment after keys.live called the test helpers on it');
    if (typeof subject !== 'string') {
      const liveAfter = await t.client.getPayment(live, subject.payment.id);
      expectStatus(liveAfter, 200, 'reading the Live Payment back');
      expectEqual(liveAfter.json?.status, subject.payment.status, 'status of the Live Payment after keys.live called the test helpers on it');
    }
  } finally {
    if (typeof subject !== 'string') await subject.release();
  }
});
