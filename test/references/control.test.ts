import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createPayment, eventOf, startReceiver, startReference, type Receiver, type RunningReference } from './helpers.ts';

let receiver: Receiver;
let ref: RunningReference;
beforeAll(async () => {
  receiver = await startReceiver();
  ref = await startReference({ createDelayMs: 0, webhookBaseUrl: receiver.url });
});
afterAll(async () => {
  await ref.close();
  await receiver.close();
});

const control = (method: string, path: string, body?: unknown, token: string | null = ref.profile.control.token) =>
  call(ref, method, `/_control${path}`, { key: null, body, headers: token === null ? {} : { authorization: `Bearer ${token}` } });

describe('control API', () => {
  it('declares itself in the profile', () => {
    expect(ref.profile.control.url).toBe(`${ref.url}/_control`);
  });

  it('401 without or with a wrong token', async () => {
    expect((await control('POST', '/endpoints/test', { path: '/hooks/test-all' }, null)).status).toBe(401);
    expect((await control('POST', '/endpoints/test', { path: '/hooks/test-all' }, 'wrong')).status).toBe(401);
    expect((await control('POST', '/payments/pay_x/reverse', undefined, ref.profile.keys.test)).status).toBe(401);
  });

  it('reverses a PAID payment and emits payment.reversed', async () => {
    const p = (await createPayment(ref, { amount: '9.99' })).json;
    const early = await control('POST', `/payments/${p.id}/reverse`);
    expect(early.status).toBe(409);
    expect(early.json.error.code).toBe('invalid_transition');
    await call(ref, 'POST', `/v1/test_helpers/payments/${p.id}/succeed`);
    const reversed = await control('POST', `/payments/${p.id}/reverse`);
    expect(reversed.status).toBe(200);
    expect(reversed.json.status).toBe('REVERSED');
    expect((await call(ref, 'GET', `/v1/payments/${p.id}`)).json).toEqual(reversed.json);
    await receiver.waitFor((all) => all.some((r) => eventOf(r).type === 'payment.reversed' && eventOf(r).data.object.id === p.id));
    const event = receiver.received.map(eventOf).find((e) => e.type === 'payment.reversed');
    expect(event.data.object).toEqual(reversed.json);
    expect((await control('POST', `/payments/${p.id}/reverse`)).status).toBe(409);
    const missing = await control('POST', '/payments/pay_nope/reverse');
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('payment_not_found');
  });

  it('sends one endpoint.test event to a Test endpoint', async () => {
    const r = await control('POST', '/endpoints/test', { path: '/hooks/test-paid' });
    expect(r.status).toBe(202);
    await receiver.waitFor((all) => all.some((x) => eventOf(x).type === 'endpoint.test'));
    await new Promise((res) => setTimeout(res, 100));
    const tests = receiver.received.filter((x) => eventOf(x).type === 'endpoint.test');
    expect(tests.map((x) => x.path)).toEqual(['/hooks/test-paid']);
    const event = eventOf(tests[0]!);
    expect(event).toMatchObject({ object: 'event', api_version: 'v1', livemode: false, id: r.json.event_id });
    expect(event.data.object.object).not.toBe('payment');
  });

  it('404 for an unknown endpoint path, 400 for a Live one, 405/404 for bad routes', async () => {
    expect((await control('POST', '/endpoints/test', { path: '/hooks/nope' })).status).toBe(404);
    expect((await control('POST', '/endpoints/test', { path: '/hooks/live-all' })).status).toBe(400);
    expect((await control('POST', '/endpoints/test', 'not an object')).status).toBe(400);
    expect((await control('GET', '/endpoints/test')).status).toBe(405);
    expect((await control('POST', '/nothing')).status).toBe(404);
  });
});
