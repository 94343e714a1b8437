/**
 * esid: Versioning — "The API major version is the /v1 path prefix." Endpoints › Rules, Rule 8 —
 *       "Unknown routes answer 404 not_found."
 * The paths of the six operations, each with its own method, a valid key, a real PENDING Payment
 * and a valid create body, under another version prefix (/v0, /v2 … /v99, /V1, /V2) are unknown
 * routes: 404 not_found, and nothing is created or moved. Borderline prefixes (/v01, /v1.0, no
 * prefix at all) are observed.
 */
import fc from 'fast-check';
import { ruleTest } from '../../service/harness/worker/rule-test.ts';
import { expectError } from '../../service/harness/worker/expect.ts';
import { OPERATIONS, expectUntouched, newSubject, outcome, sendValid } from '../_shared/valid-request.ts';
import { otherVersionPrefix } from '../../service/generators/other-version-prefix.ts';
import { share } from '../../service/harness/worker/depth.ts';
import { batched, inOrder } from '../../service/harness/worker/batch.ts';
import { OTHER_VERSION_CASES } from '../../service/generators/cases/routes-versions.ts';

ruleTest('VERS-UNKNOWN-VERSION-404', async (t) => {
  const subject = await newSubject(t, 'version');
  const key = { key: t.keys.test };
  await t.cases(OTHER_VERSION_CASES, async ({ prefix, op }) => {
    const res = await sendValid(t, op, subject, key, { prefix });
    expectError(res, 404, ['not_found'], `${op.operationId} under ${prefix}`);
  });
  const keys = [t.keys.test, ...(t.keys.live ? [t.keys.live] : [])];
  await batched(t, fc.tuple(otherVersionPrefix(), fc.constantFrom(...OPERATIONS), fc.constantFrom(...keys)), async ([prefix, op, k]) => {
    const res = await sendValid(t, op, subject, { key: k }, { prefix });
    expectError(res, 404, ['not_found'], `${op.operationId} under ${prefix}`);
  }, share(t.runs, 0.3));
  await expectUntouched(t, subject, 'requests under other version prefixes');

  // Observed: prefixes a lenient router might read as v1, and no prefix at all (reads only).
  const prefixes = ['/v01', '/v1.0', '/v1beta', '/V1.0', ''];
  const answers = await inOrder(prefixes, async (prefix) =>
    outcome(await t.client.request({ method: 'GET', path: `${prefix}/payments/${subject.paymentId}`, key: t.keys.test })));
  const label = (prefix: string) => `GET ${prefix || '(no prefix)'}/payments/{id}`;
  t.observe('borderline version prefixes', Object.fromEntries(prefixes.map((prefix, i) => [label(prefix), answers[i]!])));
});
