/**
 * esid: Endpoints › Rules, Rule 5 — "getPayment, cancelPayment and the test helpers answer 404
 * payment_not_found when the id does not exist for the key's business and environment."
 */
import fc from 'fast-check';
import { ruleTest, type RuleContext } from '../../service/harness/worker/rule-test.ts';
import { expectError } from '../../service/harness/worker/expect.ts';
import type { RequestOptions } from '../../core/client.ts';
import { OPERATIONS, expandPath, type Operation } from '../../catalogue/schemas/index.ts';
import { share } from '../../service/harness/worker/depth.ts';

const byId = OPERATIONS.filter((op) => op.path.includes('{id}'));

/** A request to `op` (one addressing a Payment, no body) for `id`, encoded once, with the Test key. */
function requestFor(op: Operation, id: string, t: RuleContext): RequestOptions {
  return { method: op.method, path: '/v1' + expandPath(op.path, { id: encodeURIComponent(id) }), key: t.keys.test };
}

ruleTest('ISO-UNKNOWN-ID', async (t) => {
  const real = await t.createPayment();
  // Ids no Payment has: made up in payment shape, in any URL-safe shape, or a real id altered.
  const ids = fc.oneof(
    fc.stringMatching(/^[A-Za-z0-9]{8,32}$/).map((s) => `pay_${s}`),
    fc.stringMatching(/^[A-Za-z0-9_-]{1,48}$/),
    fc.stringMatching(/^[A-Za-z0-9]{1,8}$/).map((s) => `${real.id}${s}`),
  ).filter((id) => id !== real.id);
  await t.property(fc.tuple(fc.constantFrom(...byId), ids), async ([op, id]) => {
    const res = await t.client.request(requestFor(op, id, t));
    expectError(res, 404, ['payment_not_found'], `${op.operationId} of ${JSON.stringify(id)}`);
  }, { runs: share(t.runs, 0.24) });
});
