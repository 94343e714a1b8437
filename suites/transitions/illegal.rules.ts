/**
 * esid: States and transitions — "A cancel or simulate operation on a Payment that is not PENDING
 *       answers 409 invalid_transition."
 *
 * The whole table: from every non-PENDING state (PAID; CANCELLED by cancelPayment; CANCELLED
 * by the cancel helper; REVERSED when the profile has the control API) each of cancelPayment,
 * the succeed helper and the cancel helper answers 409 invalid_transition, and a later get
 * shows the Payment unchanged (status, paid_at, cancelled_at). Then random sequences of the
 * three actions on fresh Payments agree with the table after every step.
 */
import fc from 'fast-check';
import { ruleTest } from '../../service/harness/worker/rule-test.ts';
import { expectError, expectStatus, expectTrue } from '../../service/harness/worker/expect.ts';
import { act, ACTION_TARGET, ACTIONS, expectRefused, expectUnchanged, getOk, reach, type Origin } from './states.ts';
import { share } from '../../service/harness/worker/depth.ts';
import { batched } from '../../service/harness/worker/batch.ts';
import { ILLEGAL_ORIGINS, ILLEGAL_TRANSITION_CASES } from '../../service/generators/cases/states.ts';

function fromOrigin(origin: Origin): void {
  ruleTest('TRANS-ILLEGAL', async (t) => {
    if (origin === 'REVERSED' && !t.profile.control) t.skip('profile lacks control (REVERSED cannot be reached through v1)');
    await t.cases(ILLEGAL_TRANSITION_CASES[origin], async (action) => {
      // A fresh Payment per action, so each refusal is judged on its own.
      const before = await reach(t, origin);
      await expectRefused(t, before, action, origin);
    });
  }, { title: `from ${origin}, cancelPayment and both test helpers answer 409 invalid_transition and change nothing` });
}

for (const origin of ILLEGAL_ORIGINS) fromOrigin(origin);

ruleTest('TRANS-ILLEGAL', async (t) => {
  // Each sequence acts on a Payment of its own, step after step (the table orders them); the sequences run a few at a time.
  await batched(t, fc.array(fc.constantFrom(...ACTIONS), { minLength: 2, maxLength: 5 }), async (actions) => {
    const p = await t.createPayment();
    let state: any = p;
    for (const [i, action] of actions.entries()) {
      const res = await act(t, action, p.id);
      if (i === 0) {
        // The first action is legal: it moves the PENDING Payment (TRANS-CANCEL and the helpers' rules say how).
        expectStatus(res, 200, `${action} on a PENDING Payment`);
        state = await getOk(t, p.id, `get after ${action}`);
        expectTrue(state?.status === ACTION_TARGET[action], `get after ${action} reads ${JSON.stringify(state?.status)}`, ACTION_TARGET[action], state?.status);
        continue;
      }
      expectError(res, 409, ['invalid_transition'], `${action} on a ${state.status} Payment (after ${actions.slice(0, i).join(', ')})`);
      const after = await getOk(t, p.id, `get after the refused ${action}`);
      expectUnchanged(after, state, `${action} on a ${state.status} Payment, then get`);
    }
  }, share(t.runs, 0.1));
}, { title: 'random sequences of cancel and helper calls: only the first moves the Payment, every later one answers 409 invalid_transition' });
