/**
 * esid: Resources and their fields › CreatePaymentRequest — "amount: positive decimal string with at
 * most two decimals"; every optional field; Endpoints — "createPayment ... 201 Payment (status
 * PENDING, with checkout_url)"; What the service does — "Amounts are decimal strings in BDT major
 * units, never JSON numbers".
 * A valid body, with any combination of the optional fields the suite can fill without fixtures,
 * answers 201 with a PENDING Payment; every field comes back as sent (on the 201 and on a later
 * read); amounts survive as decimals ("12345678901234567.89" comes back equal). Defaults of
 * allowed_methods / allowed_channels and the fate of unknown fields are observed.
 */
import fc from 'fast-check';
import { validAmount, validCreateRequest } from '../../service/generators/index.ts';
import { ruleTest } from '../../service/harness/worker/rule-test.ts';
import { Mismatch, decimalEquals, expectStatus, short } from '../../service/harness/worker/expect.ts';
import { create, expectCreated, expectEchoed, fresh, marker, outcomeOf, type Body } from './support.ts';
import { batched, eachCase } from '../../service/harness/worker/batch.ts';
import { share } from '../../service/harness/worker/depth.ts';
import { BARE_BODY_CASES, DECIMAL_EXACT_CASES, VALID_BODY_CASES } from '../../service/generators/cases/create.ts';

ruleTest('CREATE-VALID-ACCEPTED', async (t) => {
  await t.cases(VALID_BODY_CASES, async (body) => {
    const sent = { ...body, external_id: t.externalId('ok'), metadata: t.metadata() };
    const res = await create(t, sent);
    expectStatus(res, 201, `valid body ${short(body)}`);
    if (res.json?.status !== 'PENDING') throw new Mismatch(`valid body ${short(body)}: status ${short(res.json?.status)}, expected PENDING`, 'PENDING', res.json?.status);
  });
  // The lower edge, unmarked: amount alone.
  await t.cases(BARE_BODY_CASES, async (body) => {
    expectCreated(await create(t, { ...body }), body, `the bare body ${short(body)}`);
  });
  await batched(t, validCreateRequest({ marker: marker(t) }), async (generated) => {
    const body = fresh(t, { ...generated }, 'ok');
    const res = await create(t, body);
    expectStatus(res, 201, `valid body ${short(body)}`);
    if (res.json?.status !== 'PENDING') throw new Mismatch(`valid body: status ${short(res.json?.status)}, expected PENDING`, 'PENDING', res.json?.status);
  }, share(t.runs, 0.4));
});

ruleTest('CREATE-FIELDS-ECHOED', async (t) => {
  let orderKept = 0;
  let orderChanged = 0;
  const check = async (body: Body) => {
    const created = expectCreated(await create(t, body), body, 'on the 201');
    for (const f of ['allowed_methods', 'allowed_channels']) {
      if (Array.isArray(body[f]) && Array.isArray(created[f])) JSON.stringify(body[f]) === JSON.stringify(created[f]) ? orderKept++ : orderChanged++;
    }
    const read = await t.client.getPayment(t.keys.test, String(created.id));
    expectStatus(read, 200, `reading back ${created.id}`);
    expectEchoed(body, read.json, `on GET /payments/${created.id}`);
  };
  await check({
    amount: '1234.56',
    description: 'Two tickets, row F',
    merchant_reference: 'REF-2024-0001',
    external_id: t.externalId('echo'),
    return_url: 'https://shop.example.com/orders/1?paid=1#top',
    metadata: t.metadata({ order: '1', note: 'x'.repeat(500), 'Shop-Ref': 'A1' }),
    allowed_methods: ['NAGAD', 'BKASH'],
    allowed_channels: ['CASH_IN', 'SEND_MONEY'],
  });
  await batched(t, validCreateRequest({ withAll: true, marker: marker(t) }), async (generated) => {
    await check(fresh(t, { ...generated }, 'echo'));
  }, share(t.runs, 0.25));
  t.observe('list_order', { kept: orderKept, changed: orderChanged });
});

ruleTest('CREATE-AMOUNT-DECIMAL-EXACT', async (t) => {
  const formats: Record<string, unknown> = {};
  const check = async (amount: string) => {
    const body = { amount, external_id: t.externalId('dec'), metadata: t.metadata() };
    const res = await create(t, body);
    expectStatus(res, 201, `amount ${amount}`);
    if (Object.keys(formats).length < 12) formats[amount] = res.json?.amount;
    if (!decimalEquals(res.json?.amount, amount)) {
      throw new Mismatch(`amount ${short(amount)} came back ${short(res.json?.amount)} on the 201 (not the same decimal)`, amount, res.json?.amount);
    }
    const read = await t.client.getPayment(t.keys.test, String(res.json.id));
    expectStatus(read, 200, `reading back ${res.json.id}`);
    if (!decimalEquals(read.json?.amount, amount)) {
      throw new Mismatch(`amount ${short(amount)} reads back ${short(read.json?.amount)} (not the same decimal)`, amount, read.json?.amount);
    }
  };
  // Values a float or a 32/64-bit cents integer cannot hold, and cents a float rounds wrongly (0.29 * 100).
  await t.cases(DECIMAL_EXACT_CASES, check);
  await batched(t, validAmount(), check, share(t.runs, 0.2));
  t.observe('returned_format', formats);
});

ruleTest('CREATE-DEFAULT-METHODS-CHANNELS', async (t) => {
  const show = (p: any, f: string) => (p && typeof p === 'object' ? (f in p ? p[f] : 'absent') : 'no payment');
  const res = await create(t, { amount: '10.00', external_id: t.externalId('dflt'), metadata: t.metadata() });
  t.observe('create_status', outcomeOf(res));
  if (res.status !== 201) return;
  t.observe('allowed_methods_on_create', show(res.json, 'allowed_methods'));
  t.observe('allowed_channels_on_create', show(res.json, 'allowed_channels'));
  const read = await t.client.getPayment(t.keys.test, String(res.json.id));
  t.observe('allowed_methods_on_read', show(read.json, 'allowed_methods'));
  t.observe('allowed_channels_on_read', show(read.json, 'allowed_channels'));
});

ruleTest('CREATE-UNKNOWN-FIELDS', async (t) => {
  const extras: Array<[string, Body]> = [
    ['an unrelated field', { foo: 'bar' }],
    ['a nested unknown object', { shipping: { city: 'Dhaka', zip: '1207' } }],
    ['currency BDT (a Payment field, not a request field)', { currency: 'BDT' }],
    ['currency USD', { currency: 'USD' }],
    ['status PAID', { status: 'PAID' }],
    ['livemode true', { livemode: true }],
    ['an id', { id: 'pay_chosen_by_client' }],
    ['checkout_url', { checkout_url: 'https://evil.example/c/1' }],
    ['Amount in another letter case', { Amount: '999.00' }],
  ];
  const seen: Record<string, unknown> = {};
  const tally: Record<string, number> = {};
  await eachCase(extras, async ([label, extra]) => {
    const body = { amount: '10.00', external_id: t.externalId('unk'), metadata: t.metadata(), ...extra };
    const res = await create(t, body);
    const outcome = outcomeOf(res);
    tally[outcome] = (tally[outcome] ?? 0) + 1;
    const entry: Record<string, unknown> = { outcome };
    if (res.status === 201 && res.json && typeof res.json === 'object') {
      for (const [k, v] of Object.entries(extra)) entry[`${k}_in_answer`] = k in res.json ? res.json[k] : 'absent';
      if (!decimalEquals(res.json.amount, '10.00')) entry.amount_in_answer = res.json.amount;
      if (res.json.status !== 'PENDING') entry.status_in_answer = res.json.status;
    }
    seen[label] = entry;
  });
  t.observe('outcomes', tally);
  t.observe('cases', seen);
});
