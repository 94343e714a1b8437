import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createPayment, startReference, type RunningReference } from './helpers.ts';

let ref: RunningReference;
beforeAll(async () => {
  ref = await startReference({ createDelayMs: 0, webhookBaseUrl: 'http://127.0.0.1:9', onError: (e) => { throw e; } });
});
afterAll(async () => ref.close());

const PAYMENT_FIELDS = [
  'id', 'object', 'livemode', 'status', 'amount', 'currency', 'description', 'merchant_reference',
  'external_id', 'metadata', 'return_url', 'checkout_url', 'created_at', 'paid_at', 'cancelled_at',
];

describe('create, get, cancel', () => {
  it('round-trips a payment through create, get and cancel', async () => {
    const created = await createPayment(ref, {
      amount: '250.50',
      description: 'Order 42',
      merchant_reference: 'INV-42',
      external_id: 'ext-roundtrip',
      metadata: { order: '42' },
      return_url: 'https://shop.example/return',
    });
    expect(created.status).toBe(201);
    expect(created.headers['content-type']).toBe('application/json; charset=utf-8');
    const p = created.json;
    expect(Object.keys(p).sort()).toEqual([...PAYMENT_FIELDS].sort());
    expect(p).toMatchObject({
      object: 'payment', livemode: false, status: 'PENDING', amount: '250.50', currency: 'BDT',
      description: 'Order 42', merchant_reference: 'INV-42', external_id: 'ext-roundtrip',
      metadata: { order: '42' }, return_url: 'https://shop.example/return', paid_at: null, cancelled_at: null,
    });
    expect(p.id).toMatch(/^pay_/);
    expect(p.checkout_url).toMatch(/^https:\/\//);
    expect(p.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    const got = await call(ref, 'GET', `/v1/payments/${p.id}`);
    expect(got.status).toBe(200);
    expect(got.json).toEqual(p);

    const cancelled = await call(ref, 'POST', `/v1/payments/${p.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.json.status).toBe('CANCELLED');
    expect(cancelled.json.cancelled_at).toMatch(/Z$/);

    const again = await call(ref, 'POST', `/v1/payments/${p.id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('invalid_transition');
    expect(again.json.error.request_id).toMatch(/^req_/);
  });

  it('defaults: external_id null, metadata {}, allowed_* omitted, echoed when given', async () => {
    const plain = await createPayment(ref, { amount: '1' });
    expect(plain.json).toMatchObject({ external_id: null, metadata: {}, description: null, return_url: null });
    expect(plain.json).not.toHaveProperty('allowed_methods');
    const given = await createPayment(ref, { amount: '1', allowed_methods: ['NAGAD'], allowed_channels: ['CASH_IN'] });
    expect(given.json.allowed_methods).toEqual(['NAGAD']);
    expect(given.json.allowed_channels).toEqual(['CASH_IN']);
  });

  it('echoes the amount exactly as received, beyond float precision', async () => {
    for (const amount of ['12345678901234567.89', '007', '1.5', '999999999999999999.99']) {
      const r = await createPayment(ref, { amount });
      expect(r.status, amount).toBe(201);
      expect(r.json.amount).toBe(amount);
      expect(r.text).toContain(`"amount":"${amount}"`);
    }
  });

  it('succeeds through the test helper and then refuses to cancel', async () => {
    const p = (await createPayment(ref)).json;
    const paid = await call(ref, 'POST', `/v1/test_helpers/payments/${p.id}/succeed`);
    expect(paid.status).toBe(200);
    expect(paid.json.status).toBe('PAID');
    expect(paid.json.paid_at).not.toBeNull();
    expect((await call(ref, 'POST', `/v1/payments/${p.id}/cancel`)).json.error.code).toBe('invalid_transition');
    expect((await call(ref, 'POST', `/v1/test_helpers/payments/${p.id}/cancel`)).status).toBe(409);
  });
});

describe('validation', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['amount missing', {}, 'invalid_amount'],
    ['amount as JSON number', { amount: 10 }, 'invalid_amount'],
    ['three decimals', { amount: '1.234' }, 'invalid_amount'],
    ['zero', { amount: '0.00' }, 'invalid_amount'],
    ['negative', { amount: '-1' }, 'invalid_amount'],
    ['exponent', { amount: '1e3' }, 'invalid_amount'],
    ['trailing dot', { amount: '1.' }, 'invalid_amount'],
    ['19 integer digits', { amount: '1234567890123456789' }, 'invalid_amount'],
    ['javascript: URL', { amount: '1', return_url: 'javascript:alert(1)' }, 'invalid_return_url'],
    ['JavaScript: with leading space and tab inside', { amount: '1', return_url: ' Java\tScript:alert(1)' }, 'invalid_return_url'],
    ['data: URL', { amount: '1', return_url: 'data:text/html,x' }, 'invalid_return_url'],
    ['intent: URL', { amount: '1', return_url: 'intent://x#Intent;end' }, 'invalid_return_url'],
    ['http URL', { amount: '1', return_url: 'http://shop.example/' }, 'invalid_return_url'],
    ['relative URL', { amount: '1', return_url: '/return' }, 'invalid_return_url'],
    [
      '21 metadata keys',
      { amount: '1', metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])) },
      'invalid_metadata',
    ],
    ['65-character metadata key', { amount: '1', metadata: { ['k'.repeat(65)]: 'v' } }, 'invalid_metadata'],
    ['501-character metadata value', { amount: '1', metadata: { k: 'v'.repeat(501) } }, 'invalid_metadata'],
    ['non-string metadata value', { amount: '1', metadata: { k: 1 } }, 'invalid_metadata'],
    ['lower-case method', { amount: '1', allowed_methods: ['bkash'] }, 'invalid_allowed_method'],
    ['unknown channel', { amount: '1', allowed_channels: ['CARD'] }, 'invalid_allowed_channel'],
    ['description of 1001', { amount: '1', description: 'd'.repeat(1001) }, 'description_too_long'],
    ['merchant_reference of 256', { amount: '1', merchant_reference: 'r'.repeat(256) }, 'reference_too_long'],
    ['empty external_id', { amount: '1', external_id: '' }, 'invalid_external_id'],
    ['external_id of 256', { amount: '1', external_id: 'e'.repeat(256) }, 'invalid_external_id'],
    ['external_id with a newline', { amount: '1', external_id: 'a\nb' }, 'invalid_external_id'],
    ['description as a number', { amount: '1', description: 5 }, 'invalid_request'],
    ['context_items, even empty', { amount: '1', context_items: [] }, 'context_items_not_accepted'],
  ];
  for (const [title, body, code] of cases) {
    it(`${title} → 400 ${code}`, async () => {
      const r = await createPayment(ref, body);
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe(code);
    });
  }

  const accepted: [string, Record<string, unknown>][] = [
    ['https URL', { return_url: 'https://shop.example/r?x=1' }],
    ['HTTPS upper-case', { return_url: 'HTTPS://shop.example/' }],
    ['app deep link', { return_url: 'myshop://checkout/done' }],
    [
      'metadata at the limits',
      { metadata: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`${i}`.padEnd(64, 'k'), 'v'.repeat(500)])) },
    ],
    ['64 emoji key', { metadata: { ['😀'.repeat(64)]: 'x' } }],
    ['description of 1000', { description: 'd'.repeat(1000) }],
    ['unknown fields ignored', { colour: 'blue' }],
  ];
  for (const [title, extra] of accepted) {
    it(`${title} → 201`, async () => {
      const r = await createPayment(ref, { amount: '1', ...extra });
      expect(r.status).toBe(201);
    });
  }

  it('keeps a __proto__ metadata key as a plain key', async () => {
    const r = await call(ref, 'POST', '/v1/payments', {
      rawBody: '{"amount":"1","metadata":{"__proto__":"x","a":"b"}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(201);
    expect(r.text).toContain('"metadata":{"__proto__":"x","a":"b"}');
  });
});

describe('customers and orders', () => {
  it('applies customer and order rules', async () => {
    const f = ref.profile.fixtures;
    const code = async (body: Record<string, unknown>) => (await createPayment(
      ref,
      { amount: '10.00', ...body },
    )).json.error?.code ?? 'created';
    expect(await code({ customer_id: f.customer_id })).toBe('created');
    expect(await code({ customer_id: f.foreign_customer_id })).toBe('invalid_customer');
    expect(await code({ order_id: f.order.id })).toBe('created');
    expect(await code({ order_id: f.order.id, customer_id: f.order.customer_id })).toBe('created');
    expect(await code({ order_id: f.foreign_order_id })).toBe('order_not_found');
    expect(await code({ order_id: 'ord_nope' })).toBe('order_not_found');
    expect(await code({ order_id: f.cancelled_order_id })).toBe('order_cancelled');
    expect(await code({ order_id: f.order.id, amount: '1000.01' })).toBe('exceeds_order_due');
    expect(await code({ order_id: f.order.id, amount: '1000.00' })).toBe('created');
    const cancelledOrder = await createPayment(ref, { amount: '1', order_id: f.cancelled_order_id });
    expect(cancelledOrder.status).toBe(409);
  });

  it('lowers the remaining due only when a payment on the order becomes PAID', async () => {
    const f = ref.profile.fixtures;
    const p = (await createPayment(ref, { amount: '600.00', order_id: f.order.id })).json;
    expect((await createPayment(ref, { amount: '600.00', order_id: f.order.id })).status).toBe(201);
    await call(ref, 'POST', `/v1/test_helpers/payments/${p.id}/succeed`);
    const over = await createPayment(ref, { amount: '400.01', order_id: f.order.id });
    expect(over.json.error.code).toBe('exceeds_order_due');
    expect((await createPayment(ref, { amount: '400.00', order_id: f.order.id })).status).toBe(201);
  });
});

describe('external_id', () => {
  it('is unique per business and environment', async () => {
    expect((await createPayment(ref, { amount: '1', external_id: 'dup-1' })).status).toBe(201);
    const conflict = await createPayment(ref, { amount: '2', external_id: 'dup-1' });
    expect(conflict.status).toBe(409);
    expect(conflict.json.error.code).toBe('external_id_conflict');
    expect((await createPayment(ref, { amount: '1', external_id: 'dup-1' }, { key: ref.profile.keys.other_test })).status).toBe(201);
    expect((await createPayment(ref, { amount: '1', external_id: 'dup-1' }, { key: ref.profile.keys.live })).status).toBe(201);
  });
});

describe('isolation (Rules 5, 7)', () => {
  it("answers payment_not_found for another business's or environment's payment", async () => {
    const p = (await createPayment(ref)).json;
    for (const key of [ref.profile.keys.other_test, ref.profile.keys.live]) {
      const r = await call(ref, 'GET', `/v1/payments/${p.id}`, { key });
      expect(r.status).toBe(404);
      expect(r.json.error.code).toBe('payment_not_found');
      expect((await call(ref, 'POST', `/v1/payments/${p.id}/cancel`, { key })).json.error.code).toBe('payment_not_found');
    }
    expect((await call(ref, 'GET', '/v1/payments/pay_unknown')).json.error.code).toBe('payment_not_found');
  });
});

describe('test helpers and Live keys (Rule 6)', () => {
  it('answers 404 not_found to a Live key whatever the id, method or payment', async () => {
    const live = ref.profile.keys.live;
    const livePayment = (await createPayment(ref, { amount: '5' }, { key: live })).json;
    for (const [method, path] of [
      ['POST', `/v1/test_helpers/payments/${livePayment.id}/succeed`],
      ['POST', '/v1/test_helpers/payments/pay_nope/cancel'],
      ['GET', `/v1/test_helpers/payments/${livePayment.id}/succeed`],
    ] as const) {
      const r = await call(ref, method, path, { key: live });
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.json.error.code).toBe('not_found');
    }
    expect((await call(ref, 'GET', `/v1/payments/${livePayment.id}`, { key: live })).json.status).toBe('PENDING');
  });
});

describe('Live readiness', () => {
  it('answers the four Live-only 409s for Live keys only', async () => {
    const k = ref.profile.keys;
    const code = async (key: string, body: Record<string, unknown> = {}) =>
      (await createPayment(ref, { amount: '10', ...body }, { key })).json.error?.code ?? 'created';
    expect(await code(k.live)).toBe('created');
    expect(await code(k.live, { allowed_methods: ['BKASH'], allowed_channels: ['PAYMENT'] })).toBe('created');
    expect(await code(k.live_not_ready)).toBe('payment_detection_not_ready');
    expect(await code(k.live_no_credit)).toBe('insufficient_credit');
    expect(await code(k.live, { allowed_methods: ['NAGAD'] })).toBe('payment_method_unavailable');
    expect(await code(k.live, { allowed_channels: ['CASH_IN', 'BANK_TRANSFER'] })).toBe('payment_channel_unavailable');
    expect(await code(k.test, { allowed_methods: ['NAGAD'], allowed_channels: ['CASH_IN'] })).toBe('created');
  });
});

describe('auth, routes, methods', () => {
  it('401 for missing, malformed, unknown and revoked keys, with WWW-Authenticate', async () => {
    const k = ref.profile.keys;
    for (const headers of <Record<string, string>[]>[
      {},
      { authorization: k.test },
      { authorization: `Basic ${k.test}` },
      { authorization: 'Bearer pt_test_sk_000000000000000000000000' },
      { authorization: `Bearer ${k.test_revoked}` },
      { authorization: `Bearer ${k.test.replace('pt_test_sk_', 'pt_test_pk_')}` },
    ]) {
      const r = await call(ref, 'GET', '/v1/payments', { key: null, headers });
      expect(r.status).toBe(401);
      expect(r.json.error.code).toBe('invalid_api_key');
      expect(r.headers['www-authenticate']).toMatch(/^Bearer/);
    }
  });

  it('403 insufficient_scope per operation', async () => {
    const k = ref.profile.keys;
    expect((await createPayment(ref, { amount: '1' }, { key: k.test_read_only })).json.error.code).toBe('insufficient_scope');
    expect((await call(ref, 'GET', '/v1/payments', { key: k.test_write_only })).json.error.code).toBe('insufficient_scope');
    expect((await call(ref, 'GET', '/v1/payments', { key: k.test_read_only })).status).toBe(200);
    expect((await createPayment(ref, { amount: '1' }, { key: k.test_write_only })).status).toBe(201);
  });

  it('404 not_found for unknown routes, 405 with Allow for wrong methods', async () => {
    for (const path of ['/v1/refunds', '/v1/payments/', '/v2/payments', '/', '/v1/payments/x/refund', '/api/v1/payments']) {
      const r = await call(ref, 'GET', path);
      expect(r.status, path).toBe(404);
      expect(r.json.error.code).toBe('not_found');
    }
    const r = await call(ref, 'DELETE', '/v1/payments');
    expect(r.status).toBe(405);
    expect(r.json.error.code).toBe('method_not_allowed');
    expect(r.headers['allow']).toBe('GET, POST');
    expect((await call(ref, 'POST', '/v1/payments/pay_x')).headers['allow']).toBe('GET');
    expect((await call(ref, 'GET', '/v1/payments/pay_x/cancel')).headers['allow']).toBe('POST');
  });
});

describe('listing', () => {
  it('pages newest first with a truthful has_more and next_cursor', async () => {
    const key = ref.profile.keys.other_test;
    const before = (await call(ref, 'GET', '/v1/payments?limit=100', { key })).json.data.length;
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push((await createPayment(ref, { amount: `${i + 1}`, external_id: `list-${i}` }, { key })).json.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = cursor === null ? '?limit=2' : `?limit=2&starting_after=${cursor}`;
      const page = (await call(ref, 'GET', `/v1/payments${q}`, { key })).json;
      expect(page.object).toBe('list');
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((p: { id: string }) => p.id));
      expect(page.next_cursor).toBe(page.has_more ? page.data[page.data.length - 1].id : null);
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor !== null);
    expect(seen.length).toBe(before + 5);
    expect(seen.slice(0, 5)).toEqual([...ids].reverse());
    expect(pages).toBe(Math.ceil((before + 5) / 2));

    const byExternal = (await call(ref, 'GET', '/v1/payments?external_id=list-3', { key })).json;
    expect(byExternal.data.map((p: { id: string }) => p.id)).toEqual([ids[3]]);
    expect(byExternal.has_more).toBe(false);
  });

  it('filters by status and created range, inclusively', async () => {
    const key = ref.profile.keys.other_test;
    const p = (await createPayment(ref, { amount: '3' }, { key })).json;
    await call(ref, 'POST', `/v1/payments/${p.id}/cancel`, { key });
    const cancelled = (await call(ref, 'GET', '/v1/payments?status=CANCELLED&limit=100', { key })).json;
    expect(cancelled.data.every((x: { status: string }) => x.status === 'CANCELLED')).toBe(true);
    expect(cancelled.data.some((x: { id: string }) => x.id === p.id)).toBe(true);
    const exact = encodeURIComponent(p.created_at);
    const ranged = (await call(ref, 'GET', `/v1/payments?created_from=${exact}&created_to=${exact}&limit=100`, { key })).json;
    expect(ranged.data.map((x: { id: string }) => x.id)).toContain(p.id);
    expect(ranged.data.every((x: { created_at: string }) => x.created_at === p.created_at)).toBe(true);
  });

  it('400 invalid_request for malformed filters', async () => {
    for (const q of ['status=paid', 'status=UNKNOWN', 'limit=0', 'limit=101', 'limit=abc', 'limit=1.5', 'limit=',
      'created_from=yesterday', 'created_to=2024-13-01T00:00:00Z', 'starting_after=pay_nope', 'status=PAID&status=PENDING']) {
      const r = await call(ref, 'GET', `/v1/payments?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.json.error.code).toBe('invalid_request');
    }
    expect((await call(ref, 'GET', '/v1/payments?limit=100&colour=blue')).status).toBe(200);
  });

  it('shows only the key’s business and environment', async () => {
    const live = (await call(ref, 'GET', '/v1/payments?limit=100', { key: ref.profile.keys.live })).json;
    expect(live.data.every((p: { livemode: boolean }) => p.livemode)).toBe(true);
    const test = (await call(ref, 'GET', '/v1/payments?limit=100')).json;
    expect(test.data.every((p: { livemode: boolean }) => !p.livemode)).toBe(true);
  });
});
