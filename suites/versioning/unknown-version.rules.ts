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
import { OTHER_VERSION_CASES } from '../../service/generators/cases/routes-versions.ts';

ruleTest('VERS-UNKNOWN-VERSION-404', async (t) => {
  const subject = await newSubject(t, 'version');
  const key = { key: t.keys.test };
  await t.cases(OTHER_VERSION_CASES, async ({ prefix, op }) => {
    const res = await sendValid(t, op, subject, key, { prefix });
    expectError(res, 404, ['not_found'], `${op.operationId} under ${prefix}`);
  }, { concurrency: 1 });
  const keys = [t.keys.test, ...(t.keys.live ? [t.keys.live] : [])];
  await t.property(fc.tuple(otherVersionPrefix(), fc.constantFrom(...OPERATIONS), fc.constantFrom(...keys)), async ([prefix, op, k]) => {
    const res = await sendValid(t, op, subject, { key: k }, { prefix });
    expectError(res, 404, ['not_found'], `${op.operationId} under ${prefix}`);
  }, { runs: share(t.runs, 0.3) });
  await expectUntouched(t, subject, 'requests under other version prefixes');

  // Observed: prefixes a lenient router might read as v1, and no prefix at all (reads only).
  const borderline: Record<string, string> = {};
  for (const prefix of ['/v01', '/v1.0', '/v1beta', '/V1.0', '']) {
    const res = await t.client.request({ method: 'GET', path: `${prefix}/payments/${subject.paymentId}`, key: t.keys.test });
    borderline[`GET ${prefix || '(no prefix)'}/payments/{id}`] = outcome(res);
  }
  t.observe('borderline version prefixes', borderline);
});
