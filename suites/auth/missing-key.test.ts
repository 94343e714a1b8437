/**
 * esid: Authentication — "Missing, malformed, unknown or revoked key: 401 invalid_api_key."
 * Every operation, with no Authorization header, a malformed one, an unknown
 * key and a revoked key, answers 401 invalid_api_key.
 */
import fc from 'fast-check';
import { ruleTest } from '../../harness/suite.ts';
import { expectError } from '../../harness/verdict.ts';
import { anyOperation, sendFor } from '../operations.ts';

ruleTest('AUTH-MISSING-KEY', async (t) => {
  const existing = await t.createPayment();
  await t.property(fc.tuple(anyOperation, fc.boolean()), async ([op, realId]) => {
    const res = await sendFor(op, realId ? existing.id : 'pay_doesnotexist', { key: null }, t);
    expectError(res, 401, ['invalid_api_key'], op.operationId);
  }, { runs: Math.min(t.runs, 24) });
});
