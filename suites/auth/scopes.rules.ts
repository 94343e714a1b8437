/**
 * esid: Authentication — "Scopes: payments:read and payments:write, as listed per operation in
 *       Endpoints." "Key without the needed scope: 403 insufficient_scope."
 * The profile's read-only key (`keys.test_read_only`) and write-only key (`keys.test_write_only`)
 * of business A, on every operation: refused with 403 insufficient_scope where the scope is
 * lacking (and then nothing changes: no Payment moves, none is created), served where it is held.
 */
import fc from 'fast-check';
import { ruleTest } from '../../service/harness/worker/rule-test.ts';
import { expectEqual, expectError, expectStatus } from '../../service/harness/worker/expect.ts';
import { OPERATIONS, createBody, expectUntouched, newSubject, sendValid, type Operation } from '../_shared/valid-request.ts';
import { share } from '../../service/harness/worker/depth.ts';
import { READ_SCOPE_CASES, WRITE_SCOPE_CASES } from '../../service/generators/cases/auth.ts';

const needing = (scope: Operation['scope']) => OPERATIONS.filter((op) => op.scope === scope);

ruleTest('AUTH-READ-SCOPE-REQUIRED', async (t) => {
  const writeOnly = { key: t.keys.test_write_only! };
  const subject = await newSubject(t, 'noread');
  await t.cases(READ_SCOPE_CASES, async (op) => {
    const res = await sendValid(t, op, subject, writeOnly);
    expectError(res, 403, ['insufficient_scope'], `${op.operationId} with a key lacking payments:read`);
  }, { concurrency: 1 });
  // listPayments with any valid filter, getPayment of a real Payment.
  const listQuery = fc.record(
    {
      limit: fc.integer({ min: 1, max: 100 }),
      status: fc.constantFrom('PENDING', 'PAID', 'CANCELLED', 'REVERSED'),
      external_id: fc.constant(subject.externalId),
    },
    { requiredKeys: [] },
  );
  const probe = fc.oneof(listQuery.map((q) => ({ op: 'listPayments' as const, q })), fc.constant({ op: 'getPayment' as const, q: {} }));
  await t.property(probe, async ({ op, q }) => {
    const res = op === 'listPayments' ? await t.client.listPayments(writeOnly.key, q) : await t.client.getPayment(writeOnly.key, subject.paymentId);
    expectError(res, 403, ['insufficient_scope'], `${op} with a key lacking payments:read`);
  }, { runs: share(t.runs, 0.16) });
});

ruleTest('AUTH-WRITE-SCOPE-REQUIRED', async (t) => {
  const readOnly = { key: t.keys.test_read_only! };
  const subject = await newSubject(t, 'nowrite');
  await t.cases(WRITE_SCOPE_CASES, async (op) => {
    const res = await sendValid(t, op, subject, readOnly);
    expectError(res, 403, ['insufficient_scope'], `${op.operationId} with a key lacking payments:write`);
    await expectUntouched(t, subject, `${op.operationId} with a read-only key`);
  }, { concurrency: 1 });
  await t.property(
    fc.tuple(fc.constantFrom(...needing('payments:write')), fc.option(fc.uuid(), { nil: undefined })),
    async ([op, idempotencyKey]) => {
      const res = await sendValid(t, op, subject, readOnly, { idempotencyKey });
      expectError(res, 403, ['insufficient_scope'], `${op.operationId} with a key lacking payments:write`);
    },
    { runs: share(t.runs, 0.12) },
  );
  await expectUntouched(t, subject, 'write operations with a read-only key');
});

ruleTest('AUTH-SCOPE-SUFFICIENT', async (t) => {
  const readOnly = t.keys.test_read_only!;
  const writeOnly = t.keys.test_write_only!;
  // payments:read is enough to list and get.
  const seen = await t.createPayment();
  const list = await t.client.listPayments(readOnly, { limit: 5 });
  expectStatus(list, 200, 'listPayments with a read-only key');
  const got = await t.client.getPayment(readOnly, seen.id);
  expectStatus(got, 200, 'getPayment with a read-only key');
  expectEqual(got.json?.id, seen.id, 'getPayment with a read-only key returned the id');

  // payments:write is enough to create, cancel and use both test helpers.
  const subject = { paymentId: seen.id, externalId: t.externalId('wo') };
  const created = await t.client.createPayment(writeOnly, createBody(t, subject));
  expectStatus(created, 201, 'createPayment with a write-only key');
  expectEqual(created.json?.status, 'PENDING', 'createPayment with a write-only key: status');
  const cancelled = await t.client.cancelPayment(writeOnly, created.json.id);
  expectStatus(cancelled, 200, 'cancelPayment with a write-only key');
  expectEqual(cancelled.json?.status, 'CANCELLED', 'cancelPayment with a write-only key: status');
  const toPay = await t.createPayment();
  const paid = await t.client.simulateSucceeded(writeOnly, toPay.id);
  expectStatus(paid, 200, 'simulatePaymentSucceeded with a write-only key');
  expectEqual(paid.json?.status, 'PAID', 'simulatePaymentSucceeded with a write-only key: status');
  const toCancel = await t.createPayment();
  const helperCancelled = await t.client.simulateCancelled(writeOnly, toCancel.id);
  expectStatus(helperCancelled, 200, 'simulatePaymentCancelled with a write-only key');
  expectEqual(helperCancelled.json?.status, 'CANCELLED', 'simulatePaymentCancelled with a write-only key: status');
});
