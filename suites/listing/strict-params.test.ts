/**
 * esid: Resources and their fields › Enumerations — "Request filters are strict."
 *       Limits — "list page size limit | 1 to 100, default 20".
 *
 * Ruling (catalogue LIST-FILTER-STRICT, LIST-LIMIT-BOUNDS): listPayments lists no 400, yet
 * filters are strict: an unknown status, a malformed date and a limit outside 1..100 or not an
 * integer are malformed parameters, 400 invalid_request. A target that ignores or clamps them
 * answers 200 and FAILS, the answer kept as evidence. What is only arguably malformed (a date
 * without time, "010" as limit, "pending" in lower case) is observed, not asserted.
 */
import fc from 'fast-check';
import { ruleTest } from '../../harness/suite.ts';
import type { ApiResponse } from '../../harness/client.ts';
import { countCheck, Mismatch } from '../../harness/verdict.ts';
import { PAYMENT_STATUSES } from '../../schemas/index.ts';

function answer(res: ApiResponse): string {
  const code = res.json?.error?.code;
  if (code) return `${res.status} ${code}${res.json?.error?.param ? ` (param ${res.json.error.param})` : ''}`;
  if (res.status === 200 && Array.isArray(res.json?.data)) return `200 with ${res.json.data.length} item(s)`;
  return String(res.status);
}

/** 400 invalid_request, or a Mismatch whose message says what the target did instead. */
function expectRejected(res: ApiResponse, what: string): void {
  countCheck();
  const code = res.json?.error?.code;
  if (res.status === 400 && code === 'invalid_request') return;
  const how = res.status === 200
    ? `answered ${answer(res)}: the parameter was ignored or clamped instead of rejected`
    : `answered ${answer(res)}`;
  throw new Mismatch(`${what} ${how}; expected 400 invalid_request`, { status: 400, code: 'invalid_request' },
    { status: res.status, code: code ?? null, items: Array.isArray(res.json?.data) ? res.json.data.length : undefined, has_more: res.json?.has_more });
}

const KNOWN = new Set<string>(PAYMENT_STATUSES);

/** Status values no v1 target can know: contrived names, lists, other types' spellings. */
const unknownStatus: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('NOT_A_STATUS', 'PAID,CANCELLED', 'PENDING|PAID', '*', 'null', 'true', '0', '[]', '%', 'PAID;PENDING'),
  fc.stringMatching(/^[A-Z0-9]{1,8}$/).map((s) => `NO_SUCH_STATUS_${s}`),
  fc.stringMatching(/^[0-9]{1,6}$/),
);

/** Dates that are no RFC 3339 date-time by any reading. */
const malformedDate: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('not-a-date', 'yesterday', 'now', 'abc', '2024-13-01T00:00:00Z', '2024-01-32T00:00:00Z',
    '2024-01-01T25:00:00Z', '2024-01-01T10:61:00Z', '2024-00-10T00:00:00Z', '20240101T00:00:00Zjunk', 'T00:00:00Z', '--'),
  fc.stringMatching(/^[a-z]{2,12}$/),
  fc.tuple(fc.integer({ min: 13, max: 99 }), fc.integer({ min: 1, max: 28 })).map(([m, d]) => `2025-${m}-${String(d).padStart(2, '0')}T00:00:00Z`),
);

ruleTest('LIST-FILTER-STRICT', async (t) => {
  await t.property(unknownStatus, async (status) => {
    if (KNOWN.has(status)) return;
    expectRejected(await t.client.listPayments(t.keys.test, { status, limit: 1 }), `status=${status}`);
  }, { runs: Math.min(t.runs, 20) });
  // Borderline spellings: recorded, not judged.
  const seen: Record<string, string> = {};
  for (const status of ['pending', 'Paid', ' PAID', 'PAID ', 'cancelled']) {
    seen[JSON.stringify(status)] = answer(await t.client.listPayments(t.keys.test, { status, limit: 1 }));
  }
  t.observe('status_spelling_variants', seen);
}, { title: 'an unknown status filter value answers 400 invalid_request' });

ruleTest('LIST-FILTER-STRICT', async (t) => {
  await t.property(fc.tuple(fc.constantFrom('created_from', 'created_to'), malformedDate), async ([param, value]) => {
    expectRejected(await t.client.listPayments(t.keys.test, { [param]: value, limit: 1 }), `${param}=${value}`);
  }, { runs: Math.min(t.runs, 20) });
  const seen: Record<string, string> = {};
  for (const value of ['2024-01-01', '1700000000', '2024-01-01T00:00:00', '2024-01-01 00:00:00Z', '2024-02-30T00:00:00Z', '2024-01-01T00:00:00.123456789Z', '']) {
    seen[JSON.stringify(value)] = answer(await t.client.listPayments(t.keys.test, { created_from: value, limit: 1 }));
  }
  t.observe('created_from_borderline', seen);
}, { title: 'a malformed created_from or created_to answers 400 invalid_request' });

ruleTest('LIST-FILTER-STRICT', async (t) => {
  for (const status of PAYMENT_STATUSES) {
    const res = await t.client.listPayments(t.keys.test, { status, limit: 1 });
    countCheck();
    if (res.status !== 200) throw new Mismatch(`status=${status} (a PaymentStatus value) answered ${answer(res)}, expected 200`, { status: 200 }, { status: res.status, code: res.json?.error?.code ?? null });
  }
  for (const value of ['2024-01-01T00:00:00Z', '2024-01-01T06:00:00+06:00', '2024-01-01T00:00:00.5-05:30']) {
    const res = await t.client.listPayments(t.keys.test, { created_from: value, created_to: '2999-01-01T00:00:00Z', limit: 1 });
    countCheck();
    if (res.status !== 200) throw new Mismatch(`created_from=${value} (RFC 3339) answered ${answer(res)}, expected 200`, { status: 200 }, { status: res.status, code: res.json?.error?.code ?? null });
  }
}, { title: 'strictness rejects only what is malformed: each PaymentStatus and RFC 3339 dates are accepted' });

/** Limits outside 1..100 or not integers. */
const badLimit: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('0', '101', '-1', '1.5', 'abc', '1000', '-100', '100.5', '20abc', 'NaN', 'Infinity', '9999999999999999999999'),
  fc.integer({ min: 101, max: 1_000_000 }).map(String),
  fc.integer({ min: -1_000_000, max: 0 }).map(String),
  fc.tuple(fc.integer({ min: 1, max: 99 }), fc.integer({ min: 1, max: 9 })).map(([i, f]) => `${i}.${f}`),
  fc.stringMatching(/^[a-z]{1,8}$/),
);

ruleTest('LIST-LIMIT-BOUNDS', async (t) => {
  await t.property(badLimit, async (limit) => {
    expectRejected(await t.client.listPayments(t.keys.test, { limit }), `limit=${limit}`);
  }, { runs: Math.min(t.runs, 24) });
  for (const limit of [1, 100]) {
    const res = await t.client.listPayments(t.keys.test, { limit });
    countCheck();
    if (res.status !== 200) throw new Mismatch(`limit=${limit} (within 1..100) answered ${answer(res)}, expected 200`, { status: 200 }, { status: res.status, code: res.json?.error?.code ?? null });
  }
  const seen: Record<string, string> = {};
  for (const limit of ['010', '+5', ' 5', '5 ', '1e1', '20.0', '0x10', '']) {
    seen[JSON.stringify(limit)] = answer(await t.client.listPayments(t.keys.test, { limit }));
  }
  t.observe('limit_borderline', seen);
});
