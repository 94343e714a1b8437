/**
 * The `alt` variant flips each decision of references/service/README.md that the spec leaves open
 * (references/service/decisions.ts). One check per switch, so a switch that stops switching is seen here
 * and not only as a suite that happens to pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALT_DECISIONS, REFERENCE_DECISIONS, decisionsFor, type Decisions } from '../../references/service/index.ts';
import { IdempotencyStore } from '../../references/service/idempotency.ts';
import { call, createPayment, startReceiver, startReference, type Receiver, type RunningReference } from './helpers.ts';
import { rawExchange } from '../support/raw-http.ts';

let ref: RunningReference;
let receiver: Receiver;
const internalErrors: unknown[] = [];
beforeAll(async () => {
  // The receiver fails every delivery after holding it 80 ms, so the retry gap's reference point shows.
  receiver = await startReceiver((_r, res) => void setTimeout(() => res.writeHead(500).end(), 80));
  ref = await startReference({
    variant: 'alt',
    createDelayMs: 0,
    timeScale: 200, // 30 s → 150 ms
    webhookBaseUrl: receiver.url,
    rateLimit: { default: { limit: 1_000_000, windowMs: 1000 }, limitedKey: { limit: 2, windowMs: 3000 } },
    onError: (e) => internalErrors.push(e),
  });
});
afterAll(async () => {
  await ref.close();
  await receiver.close();
  expect(internalErrors).toEqual([]);
});

const raw = (bytes: string | Buffer): Promise<string> => rawExchange(ref.url, bytes);

describe('variant alt', () => {
  it('flips every switch of the default variant', () => {
    const keys = Object.keys(REFERENCE_DECISIONS).filter((k) => k !== 'variant') as (keyof Decisions)[];
    expect(keys.length).toBeGreaterThanOrEqual(18);
    for (const k of keys) expect(ALT_DECISIONS[k], k).not.toBe(REFERENCE_DECISIONS[k]);
    expect(decisionsFor('alt')).toBe(ALT_DECISIONS);
    expect(() => decisionsFor('other')).toThrow(/unknown variant/);
  });

  it('has seeded payments, lists oldest first with opaque cursors that page through', async () => {
    const first = await call(ref, 'GET', '/v1/payments?limit=3');
    expect(first.status).toBe(200);
    expect(first.json.data).toHaveLength(3);
    const times = first.json.data.map((p: { created_at: string }) => Date.parse(p.created_at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(first.json.has_more).toBe(true);
    expect(first.json.next_cursor).toMatch(/^cur_/);
    const next = await call(ref, 'GET', `/v1/payments?limit=3&starting_after=${first.json.next_cursor}`);
    expect(next.status).toBe(200);
    expect(Date.parse(next.json.data[0].created_at)).toBeGreaterThan(times[2]);
    const byId = await call(ref, 'GET', `/v1/payments?limit=3&starting_after=${first.json.data[2].id}`);
    expect(byId.json.data.map((p: { id: string }) => p.id)).toEqual(next.json.data.map((p: { id: string }) => p.id));
  });

  it('rejects unknown fields and query parameters, naming them', async () => {
    const body = await createPayment(ref, { amount: '1.00', colour: 'red' });
    expect([body.status, body.json.error.code, body.json.error.param]).toEqual([400, 'invalid_request', 'colour']);
    const query = await call(ref, 'GET', '/v1/payments?sort=asc');
    expect([query.status, query.json.error.param]).toEqual([400, 'sort']);
  });

  it('normalises amounts, fills omitted method/channel lists, random ids, +00:00 timestamps, session checkout_url', async () => {
    const a = await createPayment(ref, { amount: '007.5' });
    const b = await createPayment(ref, { amount: '1' });
    expect(a.status).toBe(201);
    expect(a.json.amount).toBe('7.50');
    expect(a.json.allowed_methods).toEqual(['BKASH', 'NAGAD']);
    expect(a.json.allowed_channels).toEqual(['SEND_MONEY', 'PAYMENT', 'CASH_IN', 'BANK_TRANSFER']);
    expect(a.json.created_at).toMatch(/\+00:00$/);
    expect(a.json.id).toMatch(/^pay_[a-z0-9]{24}$/);
    expect(b.json.amount).toBe('1.00');
    expect(a.json.checkout_url).toMatch(/^https:\/\/pay\.hps-alt\.test\/checkout\?session=cs_/);
    const cancelled = await call(ref, 'POST', `/v1/payments/${a.json.id}/cancel`);
    expect(cancelled.json.checkout_url).toBeNull();
  });

  it('replays the current state and stores a 400', async () => {
    const headers = { 'idempotency-key': 'alt-replay' };
    const created = await createPayment(ref, { amount: '5.00' }, { headers });
    await call(ref, 'POST', `/v1/test_helpers/payments/${created.json.id}/succeed`);
    const replay = await createPayment(ref, { amount: '5.00' }, { headers });
    expect([
      replay.status,
      replay.headers['idempotent-replayed'],
      replay.json.id,
      replay.json.status,
    ]).toEqual([201, 'true', created.json.id, 'PAID']);

    const bad = { 'idempotency-key': 'alt-bad' };
    expect((await createPayment(ref, { amount: 'x' }, { headers: bad })).status).toBe(400);
    const again = await createPayment(ref, { amount: 'x' }, { headers: bad });
    expect([again.status, again.json.error.code, again.headers['idempotent-replayed']]).toEqual([400, 'invalid_amount', 'true']);
  });

  it('lets a different body conflict while the first request is still processing', () => {
    const store = new IdempotencyStore();
    store.begin('pt_test_sk_x', 'k', 'body-1', 0);
    expect(() => store.begin(
      'pt_test_sk_x',
      'k',
      'body-1',
      1,
      ALT_DECISIONS.idempotencyClash,
    )).toThrow(/still processing|in_progress|progress/i);
    expect(() => store.begin(
      'pt_test_sk_x',
      'k',
      'body-2',
      1,
      ALT_DECISIONS.idempotencyClash,
    )).toThrow(expect.objectContaining({ code: 'idempotency_conflict' }));
    expect(() => store.begin(
      'pt_test_sk_x',
      'k',
      'body-2',
      1,
      REFERENCE_DECISIONS.idempotencyClash,
    )).toThrow(expect.objectContaining({ code: 'idempotency_in_progress' }));
  });

  it('answers Retry-After as the whole window', async () => {
    const key = ref.profile.keys.test_rate_limited;
    const answers = [];
    for (let i = 0; i < 2; i++) answers.push(await call(ref, 'GET', '/v1/payments?limit=1', { key }));
    await new Promise((r) => setTimeout(r, 1100)); // under 2 s left in the 3 s window
    answers.push(await call(ref, 'GET', '/v1/payments?limit=1', { key }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
    expect(answers[2]!.headers['retry-after']).toBe('3');
  });

  it('reads routes, bodies and idempotency the other way', async () => {
    expect((await call(ref, 'GET', '/v1/payments/?limit=1')).status).toBe(200);
    const plain = await call(ref, 'POST', '/v1/payments', { rawBody: '{"amount":"3.00"}', headers: { 'content-type': 'text/plain' } });
    expect(plain.status).toBe(201);
    const nulled = await createPayment(ref, { amount: '3.00', return_url: null });
    expect([nulled.status, nulled.json.error.code, nulled.json.error.param]).toEqual([400, 'invalid_return_url', 'return_url']);
    expect((await createPayment(ref, { amount: '3.00', description: 'x'.repeat(501) })).json.error.code).toBe('description_too_long');
    expect((await createPayment(ref, { amount: '3.00', external_id: 'x'.repeat(65) })).json.error.code).toBe('invalid_external_id');
    const big = await createPayment(ref, { amount: '3.00', metadata: { a: 'x'.repeat(400) }, colour: 'y'.repeat(70_000) });
    expect([big.status, big.json.error.code, big.json.error.param]).toEqual([400, 'invalid_request', undefined]);
    expect((await createPayment(
      ref,
      { amount: '3.00' },
      { headers: { 'idempotency-key': 'k'.repeat(65) } },
    )).json.error.param).toBe('Idempotency-Key');
    const key = { 'idempotency-key': 'alt-bytes' };
    expect((await call(
      ref,
      'POST',
      '/v1/payments',
      { rawBody: '{"amount":"4.00"}', headers: { ...key, 'content-type': 'application/json' } },
    )).status).toBe(201);
    const spaced = await call(
      ref,
      'POST',
      '/v1/payments',
      { rawBody: '{ "amount": "4.00" }', headers: { ...key, 'content-type': 'application/json' } },
    );
    expect(spaced.json.error.code).toBe('idempotency_conflict');
    const unknown = await call(ref, 'GET', '/v1/payments?starting_after=pay_nonexistent');
    expect([unknown.status, unknown.json.data, unknown.json.has_more]).toEqual([200, [], false]);
  });

  it('holds PENDING payments against an order\'s remaining due', async () => {
    const order = ref.profile.fixtures.order;
    const first = await createPayment(ref, { amount: order.remaining_due, order_id: order.id });
    expect(first.status).toBe(201);
    const second = await createPayment(ref, { amount: '0.01', order_id: order.id });
    expect([second.status, second.json.error.code]).toEqual([400, 'exceeds_order_due']);
    await call(ref, 'POST', `/v1/payments/${first.json.id}/cancel`);
    expect((await createPayment(ref, { amount: '0.01', order_id: order.id })).status).toBe(201);
  });

  it('serves HEAD as GET and lists HEAD in Allow', async () => {
    const head = await call(ref, 'HEAD', '/v1/payments');
    expect([head.status, head.text]).toEqual([200, '']);
    const wrong = await call(ref, 'PUT', '/v1/payments');
    expect(wrong.headers['allow']).toBe('GET, HEAD, POST');
  });

  it("keeps node:http's own answer to a header block over 16 KiB", async () => {
    const answer = await raw(`GET /v1/payments HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer pt_test_sk_${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).not.toContain('invalid_request');
  });

  it('measures retry gaps from the start of the failed attempt', async () => {
    const { json } = await createPayment(ref, { amount: '2.00' });
    const mine = (r: typeof receiver.received) => r.filter((x) => x.body.includes(json.id));
    await receiver.waitFor((r) => mine(r).length >= 3, 5000);
    // Attempts 2 → 3: a 150 ms gap after an attempt the receiver held 80 ms. Counted from the end,
    // arrivals would be ≥ 230 ms apart; counted from the start, about 150 ms.
    const [, second, third] = mine(receiver.received);
    expect(third!.at - second!.at).toBeLessThan(215);
    expect(third!.at - second!.at).toBeGreaterThan(100);
  });
});
