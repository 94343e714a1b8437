/**
 * esid: Resources and their fields › CreatePaymentRequest — "amount | string | yes | positive decimal
 * string with at most two decimals, never a JSON number"; Errors — "invalid_amount 400 amount is not
 * a positive decimal string with at most two decimals"; "invalid_request 400 body or a parameter is
 * malformed".
 * Each invalid amount is sent inside an otherwise valid, marked body and judged against the case's
 * own codes (a JSON number or a missing amount may answer invalid_amount or invalid_request).
 * Amounts the spec does not settle ("007", "1.", ".5", "1.000", 18+ digits, non-ASCII digits) are
 * only observed.
 */
import { AMOUNT_NOT_STRING_CASES, borderlineAmount, INVALID_AMOUNT_CASES, invalidAmount, invalidCreateRequest, type InvalidCase } from '../../service/generators/index.ts';
import { ruleTest } from '../../service/harness/worker/rule-test.ts';
import { create, expectRejected, fixedCase, fresh, marker, Outcomes } from './support.ts';
import { batched, eachCase } from '../../service/harness/worker/batch.ts';
import { AMOUNT_MISSING_CASES } from '../../service/generators/cases/create.ts';
import { share } from '../../service/harness/worker/depth.ts';

ruleTest('CREATE-AMOUNT-INVALID', async (t) => {
  const inBody = (c: InvalidCase<string>) => ({ ...c, value: { amount: c.value, external_id: t.externalId('amt'), metadata: t.metadata() } });
  await t.cases(INVALID_AMOUNT_CASES, async (v) => {
    const { value, ...rest } = inBody(fixedCase(v, 'CREATE-AMOUNT-INVALID', ['invalid_amount'], `amount ${JSON.stringify(v)} is not a positive decimal with at most two decimals`));
    expectRejected(await create(t, value), rest);
  });
  // The amount alone in a minimal body, and inside a full valid body.
  await batched(t, invalidAmount(), async (c) => {
    const { value, ...rest } = inBody(c);
    expectRejected(await create(t, value), rest);
  }, share(t.runs, 0.4));
  await batched(t, invalidCreateRequest({ breaks: ['CREATE-AMOUNT-INVALID'], marker: marker(t) }), async (c) => {
    expectRejected(await create(t, fresh(t, c.value, 'amt')), c);
  }, share(t.runs, 0.1));
});

ruleTest('CREATE-AMOUNT-NOT-STRING', async (t) => {
  const codes = ['invalid_amount', 'invalid_request'] as const;
  await t.cases(AMOUNT_NOT_STRING_CASES, async (v) => {
    const c = fixedCase(v, 'CREATE-AMOUNT-NOT-STRING', codes, `amount ${JSON.stringify(v)} is not a decimal string`);
    expectRejected(await create(t, { amount: c.value, external_id: t.externalId('num'), metadata: t.metadata() }), c);
  });
  await batched(t, invalidCreateRequest({ breaks: ['CREATE-AMOUNT-NOT-STRING'], marker: marker(t) }), async (c) => {
    expectRejected(await create(t, fresh(t, c.value, 'num')), c);
  }, share(t.runs, 0.25));
});

ruleTest('CREATE-AMOUNT-MISSING', async (t) => {
  const codes = ['invalid_amount', 'invalid_request'] as const;
  await t.cases(AMOUNT_MISSING_CASES, async (row) => {
    const c = fixedCase(row.build(t), 'CREATE-AMOUNT-MISSING', codes, row.why);
    expectRejected(await create(t, c.value), c);
  });
  await batched(t, invalidCreateRequest({ breaks: ['CREATE-AMOUNT-MISSING'], marker: marker(t) }), async (c) => {
    expectRejected(await create(t, fresh(t, c.value, 'miss')), c);
  }, share(t.runs, 0.1));
});

ruleTest('CREATE-AMOUNT-BORDERLINE', async (t) => {
  const outcomes = new Outcomes();
  const formats: Record<string, unknown> = {};
  const observeOne = async (c: { value: string; why: string }) => {
    const res = await create(t, { amount: c.value, external_id: t.externalId('bamt'), metadata: t.metadata() });
    const extra = res.status === 201 ? { returned: res.json?.amount } : {};
    outcomes.add(c, res, extra);
    if (res.status === 201 && Object.keys(formats).length < 20) formats[c.value] = res.json?.amount;
  };
  const fixed = ['007', '00.50', '1.', '.5', '1.000', '10.50000', '123456789012345678', '123456789012345678.00', '1234567890123456789012345', '১০০', '１００'];
  await eachCase(fixed.map((value) => ({ value, why: 'fixed borderline amount' })), observeOne);
  await batched(t, borderlineAmount(), observeOne, share(t.runs, 0.2));
  outcomes.record(t);
  t.observe('returned_format', formats);
});
