/**
 * esid: Resources and their fields › Enumerations — "Request filters are strict."
 *       Limits — "list page size limit | 1 to 100, default 20".
 *
 * Ruling (catalogue LIST-FILTER-STRICT, LIST-LIMIT-BOUNDS): listPayments lists no 400, yet
 * filters are strict: an unknown status, a malformed date and a limit outside 1..100 or not an
 * integer are malformed parameters, 400 invalid_request. A target that ignores or clamps them
 * answers 200 and FAILS, the answer kept as evidence. A near miss of a PaymentStatus ("pending",
 * " PAID") is not a PaymentStatus: a strict filter refuses it (docs/rulings.md). What is only
 * arguably malformed (a date without time, "010" as limit) is observed, not asserted.
 * Edge tables (every seed): each status's near misses, limit 0/101 and non-integers beside 1/100,
 * each date field one past its range; random cases follow them.
 */
import fc from 'fast-check';
import { ruleTest } from '../../service/harness/worker/rule-test.ts';
import type { ApiResponse } from '../../core/client.ts';
import { countCheck, Mismatch } from '../../service/harness/worker/expect.ts';
import { BAD_LIMIT_CASES, enumNearMisses, GOOD_LIMIT_CASES } from '../../service/generators/index.ts';
import { badLimit } from '../../service/generators/bad-limit.ts';
import { malformedDateFilter } from '../../service/generators/malformed-date-filter.ts';
import { unknownStatusFilter } from '../../service/generators/unknown-status-filter.ts';
import { PAYMENT_STATUSES } from '../../catalogue/schemas/index.ts';
import { share } from '../../service/harness/worker/depth.ts';
import { batched, inOrder } from '../../service/harness/worker/batch.ts';
import { KNOWN_STATUS_CASES, MALFORMED_DATE_CASES, RFC3339_DATE_CASES, STATUS_NEAR_MISS_CASES, UNKNOWN_STATUS_CASES } from '../../service/generators/cases/listing.ts';

function answer(res: ApiResponse): string {
  const code = res.json?.error?.code;
  if (code) return `${res.status} ${code}${res.json?.error?.param ? ` (param ${res.json.error.param})` : ''}`;
  if (res.status === 200 && Array.isArray(res.json?.data)) return `200 with ${res.json.data.length} item(s)`;
  return String(res.status);
}

/**
 * 400 invalid_request, or a Mismatch whose message says what the target did instead. With `param`:
 * an error that carries `param` names that parameter ("`param` is optional and names the offending
 * parameter"); one without it is conformant.
 */
function expectRejected(res: ApiResponse, what: string, param?: string): void {
  countCheck();
  const code = res.json?.error?.code;
  if (res.status === 400 && code === 'invalid_request') {
    const error = res.json.error as Record<string, unknown>;
    if (param === undefined || !Object.hasOwn(error, 'param') || error.param === param) return;
    const named = JSON.stringify(error.param);
    throw new Mismatch(`${what} answered 400 invalid_request naming param ${named}, not the offending parameter ${param}`,
      { status: 400, code: 'invalid_request', param }, { status: res.status, code, param: error.param });
  }
  const how = res.status === 200
    ? `answered ${answer(res)}: the parameter was ignored or clamped instead of rejected`
    : `answered ${answer(res)}`;
  throw new Mismatch(`${what} ${how}; expected 400 invalid_request`, { status: 400, code: 'invalid_request' },
    { status: res.status, code: code ?? null, items: Array.isArray(res.json?.data) ? res.json.data.length : undefined, has_more: res.json?.has_more });
}

/** A 200 page that lists at least one Payment (the test created one that matches). */
function expectListed(res: ApiResponse, what: string): void {
  countCheck();
  const n = Array.isArray(res.json?.data) ? res.json.data.length : 0;
  if (n === 0) throw new Mismatch(`${what}: answered ${answer(res)}; at least the Payment just created matches`, { items: '≥ 1' }, { items: n, has_more: res.json?.has_more });
}

const KNOWN = new Set<string>(PAYMENT_STATUSES);

// ── edge tables: probed on every seed, before any random case ──


ruleTest('LIST-FILTER-STRICT', async (t) => {
  await t.cases(UNKNOWN_STATUS_CASES, async (status) => {
    expectRejected(await t.client.listPayments(t.keys.test, { status, limit: 1 }), `status=${status}`, 'status');
  });
  await batched(t, unknownStatusFilter(), async (status) => {
    if (KNOWN.has(status)) return;
    expectRejected(await t.client.listPayments(t.keys.test, { status, limit: 1 }), `status=${status}`, 'status');
  }, share(t.runs, 0.2));
}, { title: 'an unknown status filter value answers 400 invalid_request' });

ruleTest('LIST-FILTER-STRICT', async (t) => {
  await t.cases(STATUS_NEAR_MISS_CASES, async (m) => {
    expectRejected(await t.client.listPayments(t.keys.test, { status: m.value, limit: 1 }), `status=${JSON.stringify(m.value)} (${m.why}, not a PaymentStatus)`);
  });
  t.note(`${enumNearMisses(PAYMENT_STATUSES).length} near misses (letter case, leading/trailing space or tab) of each of ${PAYMENT_STATUSES.join(', ')} were refused`);
}, { title: 'a near miss of a PaymentStatus (letter case, whitespace) answers 400 invalid_request' });

ruleTest('LIST-FILTER-STRICT', async (t) => {
  await t.cases(MALFORMED_DATE_CASES, async ({ param, value }) => {
    expectRejected(await t.client.listPayments(t.keys.test, { [param]: value, limit: 1 }), `${param}=${value}`, param);
  });
  await batched(t, fc.tuple(fc.constantFrom('created_from', 'created_to'), malformedDateFilter()), async ([param, value]) => {
    expectRejected(await t.client.listPayments(t.keys.test, { [param]: value, limit: 1 }), `${param}=${value}`, param);
  }, share(t.runs, 0.2));
  const values = ['2024-01-01', '1700000000', '2024-01-01T00:00:00', '2024-01-01 00:00:00Z', '2024-02-30T00:00:00Z', '2024-01-01T00:00:00.123456789Z', ''];
  const seen = await inOrder(values, async (value) => answer(await t.client.listPayments(t.keys.test, { created_from: value, limit: 1 })));
  t.observe('created_from_borderline', Object.fromEntries(values.map((v, i) => [JSON.stringify(v), seen[i]!])));
}, { title: 'a malformed created_from or created_to answers 400 invalid_request' });

ruleTest('LIST-FILTER-STRICT', async (t) => {
  // A PENDING Payment of this test exists, so "accepted" means listed, not an empty 200 (no vacuous pass).
  await t.createPayment();
  await t.cases(KNOWN_STATUS_CASES, async (status) => {
    const res = await t.client.listPayments(t.keys.test, { status, limit: 1 });
    countCheck();
    if (res.status !== 200) throw new Mismatch(`status=${status} (a PaymentStatus value) answered ${answer(res)}, expected 200`, { status: 200 }, { status: res.status, code: res.json?.error?.code ?? null });
    if (status === 'PENDING') expectListed(res, 'status=PENDING after creating a PENDING Payment');
  });
  await t.cases(RFC3339_DATE_CASES, async (value) => {
    const res = await t.client.listPayments(t.keys.test, { created_from: value, created_to: '2999-01-01T00:00:00Z', limit: 1 });
    countCheck();
    if (res.status !== 200) throw new Mismatch(`created_from=${value} (RFC 3339) answered ${answer(res)}, expected 200`, { status: 200 }, { status: res.status, code: res.json?.error?.code ?? null });
    expectListed(res, `created_from=${value} after creating a Payment`);
  });
}, { title: 'strictness rejects only what is malformed: each PaymentStatus and RFC 3339 dates are accepted' });

ruleTest('LIST-LIMIT-BOUNDS', async (t) => {
  await t.cases(BAD_LIMIT_CASES, async (limit) => expectRejected(await t.client.listPayments(t.keys.test, { limit }), `limit=${limit}`, 'limit'));
  await t.createPayment();
  await t.cases(GOOD_LIMIT_CASES, async (limit) => {
    const res = await t.client.listPayments(t.keys.test, { limit });
    countCheck();
    if (res.status !== 200) throw new Mismatch(`limit=${limit} (within 1..100) answered ${answer(res)}, expected 200`, { status: 200 }, { status: res.status, code: res.json?.error?.code ?? null });
    expectListed(res, `limit=${limit} after creating a Payment`);
  });
  await batched(t, badLimit(), async (limit) => {
    expectRejected(await t.client.listPayments(t.keys.test, { limit }), `limit=${limit}`, 'limit');
  }, share(t.runs, 0.24));
  const limits = ['010', '+5', ' 5', '5 ', '1e1', '20.0', '0x10', ''];
  const seen = await inOrder(limits, async (limit) => answer(await t.client.listPayments(t.keys.test, { limit })));
  t.observe('limit_borderline', Object.fromEntries(limits.map((l, i) => [JSON.stringify(l), seen[i]!])));
});
