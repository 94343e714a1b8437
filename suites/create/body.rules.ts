/**
 * esid: Endpoints — "Requests with a body use `Content-Type: application/json`"; Resources and their
 * fields › CreatePaymentRequest (the JSON types of its fields); Errors — "invalid_request 400 body or
 * a parameter is malformed" and the field codes.
 * A field of the wrong JSON type answers invalid_request or that field's own code; a body that is
 * not JSON answers invalid_request (an empty one may also read as "amount missing"); JSON that is not
 * an object answers invalid_request (or invalid_amount: there is no amount either). A request
 * breaking several rules answers 400 with any code that applies; which one wins is recorded. A
 * Content-Type other than application/json is observed.
 */
import fc from 'fast-check';
import {
  CREATE_REQUEST_FIELDS,
  WRONG_TYPE_CASES,
  WRONG_TYPE_CODES,
  invalidCreateRequest,
  malformedBody,
  multiViolationRequest,
  wrongContentType,
  type InvalidCase,
} from '../../service/generators/index.ts';
import type { ErrorCode } from '../../catalogue/error-codes.ts';
import { ruleTest, type RuleContext } from '../../service/harness/worker/rule-test.ts';
import { create, createRaw, expectRejected, fixedCase, fresh, marker, outcomeOf, type Body } from './support.ts';
import { batched, eachCase } from '../../service/harness/worker/batch.ts';
import { share } from '../../service/harness/worker/depth.ts';
import { MALFORMED_JSON_CASES, MULTI_VIOLATION_CASES, NOT_OBJECT_CASES } from '../../service/generators/cases/create.ts';
import { deriveFieldRuleTests } from './field-rules.ts';

function validJson(t: RuleContext, label: string): string {
  return JSON.stringify({ amount: '10.00', external_id: t.externalId(label), metadata: t.metadata() });
}

/** validJson, made once per label within a test (the rows of a table share it). */
function validJsonOnce(t: RuleContext): (label: string) => string {
  const made = new Map<string, string>();
  return (label) => made.get(label) ?? made.set(label, validJson(t, label)).get(label)!;
}

ruleTest('CREATE-WRONG-TYPE', async (t) => {
  await t.cases(WRONG_TYPE_CASES, async ({ field, value }) => {
    const c = fixedCase({ field, value }, 'CREATE-WRONG-TYPE', WRONG_TYPE_CODES[field], `${field} ${JSON.stringify(value)} has the wrong JSON type`);
    const body: Body = { amount: '10.00', external_id: t.externalId('type'), metadata: t.metadata(), [field]: value };
    expectRejected(await create(t, body), c);
  });
  await batched(t, invalidCreateRequest({ breaks: ['CREATE-WRONG-TYPE'], marker: marker(t) }), async (c) => {
    expectRejected(await create(t, fresh(t, c.value, 'type')), c);
  }, share(t.runs, 0.4));
});

ruleTest('CREATE-MALFORMED-JSON', async (t) => {
  const json = validJsonOnce(t);
  const check = async (c: InvalidCase<string>) => expectRejected(await createRaw(t, c.value), c);
  await t.cases(MALFORMED_JSON_CASES, (row) => check(fixedCase(row.raw(json), 'CREATE-MALFORMED-JSON', row.codes, `body ${row.why}`)));
  await batched(t, malformedBody({ breaks: ['CREATE-MALFORMED-JSON'] }), check, share(t.runs, 0.4));
});

ruleTest('CREATE-BODY-NOT-OBJECT', async (t) => {
  const json = validJsonOnce(t);
  const check = async (c: InvalidCase<string>) => expectRejected(await createRaw(t, c.value), c);
  await t.cases(NOT_OBJECT_CASES, (row) => check(fixedCase(row.raw(json), 'CREATE-BODY-NOT-OBJECT', row.codes, `body ${row.why}`)));
  await batched(t, malformedBody({ breaks: ['CREATE-BODY-NOT-OBJECT'] }), check, share(t.runs, 0.15));
});

ruleTest('CREATE-MULTI-VIOLATION', async (t) => {
  type Part = Pick<InvalidCase, 'breaks' | 'codes' | 'why'>;
  const winners: Record<string, number> = {};
  const byFields: Record<string, Record<string, number>> = {};
  const check = async (c: { value: Body; codes: readonly ErrorCode[]; why: string; parts: readonly Part[] }) => {
    const res = await create(t, c.value);
    const outcome = outcomeOf(res);
    winners[outcome] = (winners[outcome] ?? 0) + 1;
    // Every field case's `why` starts with the field it breaks.
    const fields = c.parts.map((p) => `${p.why.split(' ')[0]} (${p.breaks})`).sort().join(' + ');
    if (fields in byFields || Object.keys(byFields).length < 40) {
      const row = (byFields[fields] ??= {});
      row[outcome] = (row[outcome] ?? 0) + 1;
    }
    expectRejected(res, c);
  };
  // Pairs none of whose codes is invalid_request: a target that answers a generic code fails them.
  await t.cases(MULTI_VIOLATION_CASES, (row) => check({
    value: { amount: '10.00', external_id: t.externalId('multi'), metadata: t.metadata(), ...row.extra(t) },
    codes: [...new Set(row.parts.flatMap((p) => p.codes))],
    parts: row.parts,
    why: row.why,
  }));
  await batched(
    t,
    fc.integer({ min: 2, max: 3 }).chain((count) => multiViolationRequest({ count, marker: marker(t) })),
    (c) => check({ ...c, value: fresh(t, c.value, 'multi') }),
    share(t.runs, 0.4),
  );
  t.observe('winning_code', winners);
  t.observe('by_fields_broken', byFields);
});

ruleTest('CREATE-CONTENT-TYPE', async (t) => {
  const seen: Record<string, string> = {};
  const observeOne = async (contentType: string | null, label?: string) => {
    const key = label ?? (contentType === null ? '(no Content-Type header)' : contentType === '' ? '(empty Content-Type)' : contentType);
    if (key in seen) return;
    seen[key] = 'pending';
    seen[key] = outcomeOf(await createRaw(t, validJson(t, 'ctype'), contentType));
  };
  // Forms of application/json itself (RFC 9110: parameters and letter case do not change the type), for comparison.
  await eachCase([['application/json; charset=utf-8', 'application/json; charset=utf-8 (same media type)'], ['Application/JSON', 'Application/JSON (same media type)']] as const, ([ct, label]) => observeOne(ct, label));
  await batched(t, wrongContentType(), (c) => observeOne(c.contentType), share(t.runs, 0.2));
  t.observe('outcome_by_content_type', seen);
});

// A single-field rule without a test of its own above or in this folder gets its derived test
// (suites/create/field-rules.ts: its fixed violations, then drawn ones, each refused with its codes).
deriveFieldRuleTests();
