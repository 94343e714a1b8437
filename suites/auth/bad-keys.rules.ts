/**
 * Keys that are not valid (spec, Authentication: "Missing, malformed, unknown or revoked key: 401
 * invalid_api_key"): malformed headers, unknown keys, the revoked key, the WWW-Authenticate
 * challenge of their 401s, and (OBSERVE) which answer wins when a bad key meets another problem.
 * Requests without any Authorization header are in missing-key.test.ts.
 */
import fc from 'fast-check';
import { ruleTest } from '../../service/harness/worker/rule-test.ts';
import { TransportError, type RequestOptions } from '../../core/client.ts';
import { expectTrue } from '../../service/harness/worker/expect.ts';
import { sampleFor } from '../_shared/seeded-draw.ts';
import { FAMILY_DRAWS, invalidCredentials, issuedKeys, lenientForms, malformedAuthorization, oneOfEachFamily, unknownKey } from './bad-credentials.ts';
import { OPERATIONS, expectUntouched, newSubject, outcome, sendValid, type Credentials } from '../_shared/valid-request.ts';
import { splitKey } from '../../service/generators/invalid-credentials.ts';
import { MALFORMED_KEY_CASES } from '../../service/generators/index.ts';
import { expectInvalidKey } from './invalid-key.ts';
import { share } from '../../service/harness/worker/depth.ts';
import { batched, eachCase, inOrder } from '../../service/harness/worker/batch.ts';
import { REVOKED_KEY_OPERATION_CASES } from '../../service/generators/cases/auth.ts';

/**
 * esid: Authentication — "Scheme: HTTP bearer. Header `Authorization: Bearer <API_KEY>`."
 *       "Missing, malformed, unknown or revoked key: 401 invalid_api_key."
 * An Authorization header that is not `Bearer <key>` answers 401 invalid_api_key on every
 * operation, even when a valid key hides inside it (another scheme, Basic, no scheme, glued,
 * quoted, an extra token, a wrong prefix, non-ASCII bytes, a very long key), and changes nothing.
 * Forms a standard parser may accept with a valid key (scheme case, several spaces, OWS) are
 * observed, not asserted (RFC 9110 §11.1, RFC 6750 §2.1).
 */
ruleTest('AUTH-MALFORMED-KEY', async (t) => {
  const subject = await newSubject(t, 'malformed');
  const malformed = malformedAuthorization(t.keys.test);
  // Every fixed form of every family (each scheme and encoding), on operations in turn: the same on every seed.
  await t.cases(MALFORMED_KEY_CASES, async ({ cred, op }) => {
    const res = await sendValid(t, op, subject, cred);
    expectInvalidKey(res, op, cred, `${op.operationId} with a malformed Authorization (${cred.family})`);
  });
  await batched(t, fc.tuple(fc.constantFrom(...OPERATIONS), malformed), async ([op, cred]) => {
    const res = await sendValid(t, op, subject, cred);
    expectInvalidKey(res, op, cred, `${op.operationId} with a malformed Authorization (${cred.family})`);
  }, share(t.runs, 0.6));
  await expectUntouched(t, subject, 'requests with a malformed Authorization');

  // Observed: forms a lenient standard parser accepts with the valid key (a read, changes nothing).
  const forms = lenientForms(t.keys.test);
  const answers = await inOrder(forms, async ({ authorization }) =>
    outcome(await t.client.request({ method: 'GET', path: '/v1/payments?limit=1', authorization })));
  t.observe('valid key in a lenient form (GET /payments)', Object.fromEntries(forms.map(({ form }, i) => [form, answers[i]!])));
  // Observed: keys longer than a usual header limit (the spec sets no length; 401, 400 or 431 are all seen in practice).
  const sizes = [8_000, 20_000, 70_000];
  const huge = await inOrder(sizes, async (n) => {
    try {
      const res = await t.client.request({ method: 'GET', path: '/v1/payments?limit=1', authorization: `Bearer pt_test_sk_${'A'.repeat(n)}`, outsideHttp: `a ${n}-character Authorization header, past common header limits` });
      return outcome(res);
    } catch (e) {
      if (!(e instanceof TransportError)) throw e;
      return `no HTTP answer (${e.code})`;
    }
  });
  t.observe('oversized key', Object.fromEntries(sizes.map((n, i) => [`${n}-character key`, huge[i]!])));
});

/**
 * esid: Authentication — "Missing, malformed, unknown or revoked key: 401 invalid_api_key."
 * A well-formed key the service never issued answers 401 invalid_api_key on every operation and
 * changes nothing: random Test and Live keys, and near misses of the profile's keys (one character
 * changed, truncated, extended, case-swapped, under the other environment's prefix). A Live-shaped
 * key on `/test_helpers` may meet Rule 6 first (404 not_found): both answers are accepted.
 */
ruleTest('AUTH-UNKNOWN-KEY', async (t) => {
  const subject = await newSubject(t, 'unknown');
  const issued = issuedKeys(t.keys);
  const bases = [t.keys.test, ...(t.keys.live ? [t.keys.live] : [])];
  const unknown = unknownKey(bases, issued);
  // Every family once, on operations in turn; and the nearest miss of all: the last character changed.
  const { prefix, secret } = splitKey(t.keys.test);
  const last = secret.slice(-1) === 'Z' ? 'Y' : 'Z';
  const table = [...oneOfEachFamily(sampleFor(t, 'families', unknown, FAMILY_DRAWS)), { family: 'last character changed', kind: 'unknown' as const, key: `${prefix}${secret.slice(0, -1)}${last}` }];
  await eachCase(table, async (cred, i) => {
    const op = OPERATIONS[i % OPERATIONS.length]!;
    const res = await sendValid(t, op, subject, cred);
    expectInvalidKey(res, op, cred, `${op.operationId} with an unknown key (${cred.family})`);
  });
  await batched(t, fc.tuple(fc.constantFrom(...OPERATIONS), unknown), async ([op, cred]) => {
    const res = await sendValid(t, op, subject, cred);
    expectInvalidKey(res, op, cred, `${op.operationId} with an unknown key (${cred.family})`);
  }, share(t.runs, 0.48));
  await expectUntouched(t, subject, 'requests with unknown keys');
});

/**
 * esid: Authentication — "Missing, malformed, unknown or revoked key: 401 invalid_api_key."
 * The profile's revoked key (`keys.test_revoked`) answers 401 invalid_api_key on every operation,
 * otherwise valid, with or without an Idempotency-Key, and changes nothing.
 */
ruleTest('AUTH-REVOKED-KEY', async (t) => {
  const revoked = { key: t.keys.test_revoked! };
  const subject = await newSubject(t, 'revoked');
  await t.cases(REVOKED_KEY_OPERATION_CASES, async (op) => {
    const res = await sendValid(t, op, subject, revoked);
    expectInvalidKey(res, op, revoked, `${op.operationId} with the revoked key`);
  });
  await batched(t, fc.tuple(fc.constantFrom(...OPERATIONS), fc.option(fc.uuid(), { nil: undefined })), async ([op, idempotencyKey]) => {
    const res = await sendValid(t, op, subject, revoked, { idempotencyKey });
    expectInvalidKey(res, op, revoked, `${op.operationId} with the revoked key`);
  }, share(t.runs, 0.12));
  await expectUntouched(t, subject, 'requests with the revoked key');
});

/** A challenge list (RFC 9110 §11.6.1) holding a Bearer challenge. */
function hasBearerChallenge(value: string | undefined): boolean {
  return typeof value === 'string' && /(^|,)\s*Bearer(\s|,|$)/i.test(value);
}

/**
 * esid: Authentication — "Scheme: HTTP bearer." RFC 9110 §11.6.1 ("A server generating a 401
 *       (Unauthorized) response MUST send a WWW-Authenticate header field containing at least one
 *       challenge") and RFC 6750 §3 (the Bearer challenge).
 * SHOULD: every 401 answer, whatever the operation and the way the key is bad, carries a
 * WWW-Authenticate header with a Bearer challenge. Answers other than 401 are other rules' business.
 */
ruleTest('AUTH-WWW-AUTHENTICATE', async (t) => {
  const subject = await newSubject(t, 'wwwauth');
  let checked = 0;
  await batched(t, fc.tuple(fc.constantFrom(...OPERATIONS), invalidCredentials(t.keys, issuedKeys(t.keys))), async ([op, cred]) => {
    const { family, kind, ...auth } = cred;
    const res = await sendValid(t, op, subject, auth);
    if (res.status !== 401) return;
    checked++;
    const header = res.headers['www-authenticate'];
    expectTrue(
      hasBearerChallenge(header),
      `${op.operationId} with ${kind} credentials (${family}): the 401 carries ${header === undefined ? 'no WWW-Authenticate header' : `WWW-Authenticate: ${header}`}`,
      { 'www-authenticate': 'Bearer …' },
      { 'www-authenticate': header ?? null },
    );
  }, share(t.runs, 0.24));
  if (checked === 0) t.skip('no request answered 401');
  t.note(`${checked} answers 401 checked`);
});

/**
 * esid: Authentication; Endpoints › Rules — the order of checks is not shown (DESIGN, spec gaps).
 * OBSERVE: which answer wins when a credentials problem (no key, a malformed one, an unknown one,
 * the revoked one, a key lacking the scope) meets another problem: an unknown route, a wrong
 * method, an unknown Payment id, an invalid create body, a Payment that is not PENDING, a
 * `/test_helpers` route under a Live-shaped key. Nothing is asserted but "never 2xx" (which
 * AUTH-NO-KEY-NEVER-SUCCEEDS asserts); the table is the observation.
 */
ruleTest('AUTH-CHECK-ORDER', async (t) => {
  const pending = await t.createPayment();
  const done = await t.createPayment();
  await t.client.cancelPayment(t.keys.test, done.id);
  const missingId = 'pay_conformance_missing_0000';
  const creds: Array<[string, Credentials]> = [
    ['no key', { key: null }],
    ['malformed key', { authorization: `Basic ${Buffer.from(`${t.keys.test}:`).toString('base64')}` }],
    ['unknown key', { key: `pt_test_sk_conformanceUnknown${t.runId.replace(/[^A-Za-z0-9]/g, '')}` }],
    ['unknown Live-shaped key', { key: 'pt_live_sk_conformanceUnknownLiveKey000' }],
  ];
  if (t.keys.test_revoked) creds.push(['revoked key', { key: t.keys.test_revoked }]);
  if (t.keys.test_read_only) creds.push(['read-only key', { key: t.keys.test_read_only }]);
  if (t.keys.test_write_only) creds.push(['write-only key', { key: t.keys.test_write_only }]);

  const situations: Array<[string, Omit<RequestOptions, 'key' | 'authorization'>]> = [
    ['unknown route (GET /v1/refunds)', { method: 'GET', path: '/v1/refunds' }],
    ['wrong method (DELETE /v1/payments)', { method: 'DELETE', path: '/v1/payments' }],
    ['wrong method (PUT /v1/payments/{id})', { method: 'PUT', path: `/v1/payments/${pending.id}` }],
    ['unknown Payment (GET /v1/payments/{missing})', { method: 'GET', path: `/v1/payments/${missingId}` }],
    ['unknown Payment (POST /v1/payments/{missing}/cancel)', { method: 'POST', path: `/v1/payments/${missingId}/cancel` }],
    ['invalid create body (amount as a JSON number)', { method: 'POST', path: '/v1/payments', json: { amount: 10 } }],
    ['unparseable create body', { method: 'POST', path: '/v1/payments', raw: '{"amount":', headers: { 'content-type': 'application/json' } }],
    ['cancel of a CANCELLED Payment', { method: 'POST', path: `/v1/payments/${done.id}/cancel` }],
    ['test helper on a missing Payment', { method: 'POST', path: `/v1/test_helpers/payments/${missingId}/succeed` }],
    ['test helper on a CANCELLED Payment', { method: 'POST', path: `/v1/test_helpers/payments/${done.id}/cancel` }],
  ];
  const table: Record<string, Record<string, string>> = {};
  let authFirst = 0;
  let total = 0;
  // Each combination alone (none reads another's answer), a few at a time; the table keeps this order.
  const combos = situations.flatMap(([situation, req]) => creds.map(([label, auth]) => ({ situation, req, label, auth })));
  // A key with the scope would succeed on some of these: only the problems are combined.
  const answers = await inOrder(combos, ({ req, auth }) => t.client.request({ ...req, ...auth }));
  for (const [i, { situation, label }] of combos.entries()) {
    const res = answers[i]!;
    (table[situation] ??= {})[label] = outcome(res);
    if (label !== 'read-only key' && label !== 'write-only key') {
      total++;
      if (res.status === 401) authFirst++;
    }
  }
  t.observe('answer by situation and credentials', table);
  t.observe('bad credentials answered 401 first', `${authFirst} of ${total} combinations`);
  // The Payments used above are not changed by any of these (a note, asserted elsewhere).
  const after = await t.client.getPayment(t.keys.test, pending.id);
  t.note(`Payment used for the wrong-method probe is ${after.json?.status ?? after.status} afterwards`);
});
