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
} from '../../generators/index.ts';
import type { ErrorCode } from '../../catalogue/error-codes.ts';
import { ruleTest, type RuleContext } from '../../runner/rule-test.ts';
import { create, createRaw, eachCase, expectRejected, fixedCase, fresh, marker, outcomeOf, type Body, batched } from './support.ts';
import { share } from '../../runner/depth.ts';
import { deriveFieldRuleTests } from './field-rules.ts';

function validJson(t: RuleContext, label: string): string {
  return JSON.stringify({ amount: '10.00', external_id: t.externalId(label), metadata: t.metadata() });
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
  const json = validJson(t, 'mal');
  const broken = (raw: string, why: string) => fixedCase(raw, 'CREATE-MALFORMED-JSON', ['invalid_request'], `body ${why}`);
  const fixed: InvalidCase<string>[] = [
    broken(json.slice(0, -1), 'cut short (no closing brace)'),
    broken(json.slice(0, 12), 'cut short inside a string'),
    broken(`${json.slice(0, -1)},}`, 'with a trailing comma'),
    broken(json.replaceAll('"', "'"), 'with single quotes'),
    broken(json.replace(/"([a-z_]+)":/g, '$1:'), 'with unquoted keys'),
    broken(`${json} x`, 'with garbage after the object'),
    broken(`${json}${json}`, 'of two objects back to back'),
    broken('{"amount":NaN}', 'with NaN as a value'),
    broken('{"amount":"10.00","description":"a\u0001b"}', 'with a raw control character in a string'),
    broken('{"amount":"10.00","description":"\\x41"}', 'with an invalid escape'),
    broken('\uFEFF{garbage', 'of a byte order mark and garbage'),
    broken('amount=10.00&description=x', 'form-encoded'),
    broken('{', 'a lone brace'),
    fixedCase('', 'CREATE-MALFORMED-JSON', ['invalid_request', 'invalid_amount'], 'body empty'),
  ];
  const check = async (c: InvalidCase<string>) => expectRejected(await createRaw(t, c.value), c);
  await eachCase(fixed, check);
  await batched(t, malformedBody({ breaks: ['CREATE-MALFORMED-JSON'] }), check, share(t.runs, 0.4));
});

ruleTest('CREATE-BODY-NOT-OBJECT', async (t) => {
  const codes = ['invalid_request', 'invalid_amount'] as const;
  const notObject = (raw: string, why: string) => fixedCase(raw, 'CREATE-BODY-NOT-OBJECT', codes, `body ${why}`);
  const fixed: InvalidCase<string>[] = [
    notObject('[]', 'is an empty array'),
    notObject(`[${validJson(t, 'arr')}]`, 'is an array holding a valid body'),
    notObject(JSON.stringify(validJson(t, 'str')), 'is a valid body encoded twice (a JSON string)'),
    notObject('"10.00"', 'is a JSON string'),
    notObject('10', 'is a JSON number'),
    notObject('null', 'is null'),
    notObject('true', 'is true'),
    notObject('false', 'is false'),
  ];
  const check = async (c: InvalidCase<string>) => expectRejected(await createRaw(t, c.value), c);
  await eachCase(fixed, check);
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
  const part = (field: string, breaks: InvalidCase['breaks'], codes: readonly ErrorCode[]): Part => ({ breaks, codes, why: field });
  const multi = (extra: Body, parts: Part[], why: string) => ({
    value: { amount: '10.00', external_id: t.externalId('multi'), metadata: t.metadata(), ...extra },
    codes: [...new Set(parts.flatMap((p) => p.codes))],
    parts,
    why,
  });
  const many: Record<string, string> = t.metadata();
  for (let i = 0; i < 21; i++) many[`key_${i}`] = 'v';
  // Pairs none of whose codes is invalid_request: a target that answers a generic code fails them.
  const fixed = [
    multi({ amount: '0', return_url: 'javascript:alert(1)' }, [part('amount', 'CREATE-AMOUNT-INVALID', ['invalid_amount']), part('return_url', 'CREATE-RETURN-URL-FORBIDDEN-SCHEME', ['invalid_return_url'])], 'zero amount and a javascript: return_url'),
    multi({ amount: '1.005', metadata: many }, [part('amount', 'CREATE-AMOUNT-INVALID', ['invalid_amount']), part('metadata', 'CREATE-METADATA-TOO-MANY-KEYS', ['invalid_metadata'])], 'three decimals and 22 metadata keys'),
    multi({ return_url: 'http://shop.example.com/done', allowed_methods: ['bkash'] }, [part('return_url', 'CREATE-RETURN-URL-NOT-HTTPS', ['invalid_return_url']), part('allowed_methods', 'CREATE-ALLOWED-METHODS-INVALID', ['invalid_allowed_method'])], 'an http return_url and a lower-case method'),
    multi({ allowed_channels: ['QR'], context_items: [] }, [part('allowed_channels', 'CREATE-ALLOWED-CHANNELS-INVALID', ['invalid_allowed_channel']), part('context_items', 'CREATE-CONTEXT-ITEMS-REJECTED', ['context_items_not_accepted'])], 'an unknown channel and context_items'),
    multi({ amount: '-1', allowed_methods: ['ROCKET'], allowed_channels: ['CASH_OUT'] }, [part('amount', 'CREATE-AMOUNT-INVALID', ['invalid_amount']), part('allowed_methods', 'CREATE-ALLOWED-METHODS-INVALID', ['invalid_allowed_method']), part('allowed_channels', 'CREATE-ALLOWED-CHANNELS-INVALID', ['invalid_allowed_channel'])], 'a negative amount, an unknown method and an unknown channel'),
    multi({ metadata: { ...t.metadata(), ['k'.repeat(65)]: 'v' }, return_url: '/relative' }, [part('metadata', 'CREATE-METADATA-KEY-TOO-LONG', ['invalid_metadata']), part('return_url', 'CREATE-RETURN-URL-NOT-HTTPS', ['invalid_return_url'])], 'a 65-character metadata key and a relative return_url'),
  ];
  await eachCase(fixed, check);
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
