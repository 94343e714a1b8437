/**
 * esid: States and transitions — "PAID | reversal in the service's records | | REVERSED";
 *       "A cancel or simulate operation on a Payment that is not PENDING answers 409 invalid_transition."
 * Enumerations — "REVERSED reflects the service's own financial record".
 *
 * The reversal is triggered through the profile's control API (docs/profile.md): v1 itself cannot.
 * A reversed PAID Payment reads REVERSED; cancelPayment and both helpers answer 409 and leave
 * it REVERSED; only a PAID Payment becomes REVERSED.
 */
import { ruleTest } from '../../service/harness/worker/rule-test.ts';
import { expectStatus, expectTrue } from '../../service/harness/worker/expect.ts';
import { validate } from '../../catalogue/schemas/index.ts';
import { pendingBody } from '../../service/generators/pending-body.ts';
import { ACTIONS, expectRefused, expectSameInstant, expectUnchanged, getOk, instantOf, reach, reverse } from './states.ts';
import { share } from '../../service/harness/worker/depth.ts';
import { NON_PAID_REVERSAL_CASES } from '../../service/generators/cases/states.ts';

ruleTest('TRANS-REVERSED', async (t) => {
  const keeps: Record<string, number> = {};
  await t.property(pendingBody(), async (body) => {
    const paid = await reach(t, 'PAID', body);
    const res = await reverse(t, paid.id);
    expectStatus(res, 200, 'control reversal of a PAID Payment');
    const v = validate('Payment', res.json);
    expectTrue(v.valid, `the reversal answered a body that is not a Payment: ${v.errors.slice(0, 3).join('; ')}`, 'Payment', res.json);
    expectTrue(res.json.status === 'REVERSED', `the reversal answered status ${JSON.stringify(res.json.status)}, expected REVERSED`, 'REVERSED', res.json.status);
    const g = await getOk(t, paid.id, 'get after the reversal');
    expectTrue(g?.status === 'REVERSED', `get after the reversal reads ${JSON.stringify(g?.status)}, expected REVERSED`, 'REVERSED', g?.status);
    expectSameInstant(g.created_at, paid.created_at, 'get after the reversal: created_at');
    // What REVERSED keeps of paid_at / cancelled_at is not shown: recorded.
    const form = `paid_at ${g.paid_at == null ? 'cleared' : instantOf(g.paid_at) === instantOf(paid.paid_at) ? 'kept' : 'changed'}, cancelled_at ${g.cancelled_at == null ? 'not set' : 'set'}`;
    keeps[form] = (keeps[form] ?? 0) + 1;
    for (const action of ACTIONS) await expectRefused(t, g, action, 'REVERSED');
  }, { runs: share(t.runs, 0.05) });
  t.observe('reversed_timestamps', keeps);
});

ruleTest('TRANS-REVERSED', async (t) => {
  const answers: Record<string, string> = {};
  const make = {
    PENDING: async () => getOk(t, (await t.createPayment()).id, 'get of a PENDING Payment'),
    CANCELLED: async () => reach(t, 'CANCELLED by cancelPayment'),
    REVERSED: async () => reach(t, 'REVERSED'),
  } as const;
  await t.cases(NON_PAID_REVERSAL_CASES, async (name) => {
    const before = await make[name]();
    const res = await reverse(t, before.id);
    answers[name] = `${res.status}${res.json?.error?.code ? ` ${res.json.error.code}` : ''}`;
    const after = await getOk(t, before.id, `get after reversing a ${name} Payment`);
    expectUnchanged(after, before, `reversal of a ${name} Payment, then get`);
  }, { concurrency: 1 });
  t.observe('reversal_of_non_paid', answers);
}, { title: 'only a PAID Payment becomes REVERSED: a reversal of a PENDING, CANCELLED or REVERSED one leaves it unchanged' });
