import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createPayment,
  eventOf,
  secretOf,
  startReceiver,
  startReference,
  type Receiver,
  type Received,
  type RunningReference,
} from './helpers.ts';

/** The receiver's side of the spec's signature check, written independently of the reference. */
function verify(r: Received, secret: string): boolean {
  const header = String(r.headers['service-signature'] ?? '');
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!m) return false;
  const [, t, v1] = m as unknown as [string, string, string];
  if (Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.`).update(r.body).digest('hex');
  return timingSafeEqual(Buffer.from(expected), Buffer.from(v1));
}

const TIME_SCALE = 12_000;
/** Spec gaps (immediately, 30 s, 2 min, 10 min, 30 min, 2 h, 6 h) divided by TIME_SCALE. */
const SCALED_GAPS = [0, 30, 120, 600, 1800, 7200, 21600].map((s) => (s * 1000) / TIME_SCALE);

let receiver: Receiver;
let ref: RunningReference;

beforeAll(async () => {
  // The receiver answers by the payment's metadata.mode, as the suite's sink does.
  receiver = await startReceiver((r, res) => {
    const mode = eventOf(r).data?.object?.metadata?.mode ?? 'ok';
    if (mode === 'fail') {
      res.statusCode = 500;
      res.end('no');
    } else if (mode === 'redirect') {
      res.statusCode = 302;
      res.setHeader('Location', '/redirected-here');
      res.end();
    } else {
      res.end('ok');
    }
  });
  ref = await startReference({ createDelayMs: 0, webhookBaseUrl: receiver.url, timeScale: TIME_SCALE });
});
afterAll(async () => {
  await ref.close();
  await receiver.close();
});

const forPayment = (id: string) => (r: Received) => eventOf(r).data?.object?.id === id;

describe('webhook delivery', () => {
  it('delivers signed events, routed by environment, subscription and enablement', async () => {
    const created = await createPayment(ref, { amount: '42.00', metadata: { mode: 'ok' } });
    const id = created.json.id;
    const paid = await call(ref, 'POST', `/v1/test_helpers/payments/${id}/succeed`);
    await receiver.waitFor((all) => all.filter(forPayment(id)).length >= 3);
    await new Promise((r) => setTimeout(r, 100));
    const mine = receiver.received.filter(forPayment(id));
    const seen = mine.map((r) => `${r.path} ${eventOf(r).type}`).sort();
    expect(seen).toEqual([
      '/hooks/test-all payment.created',
      '/hooks/test-all payment.paid',
      '/hooks/test-paid payment.paid',
    ]);
    for (const r of mine) {
      expect(verify(r, secretOf(ref, r.path))).toBe(true);
      expect(verify(r, secretOf(ref, '/hooks/live-all'))).toBe(false);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['user-agent']).toBe('Service-Webhooks/1.0');
      const event = eventOf(r);
      expect(r.headers['service-event-id']).toBe(event.id);
      expect(event).toMatchObject({ object: 'event', api_version: 'v1', livemode: false });
      expect(event.id).toMatch(/^evt_/);
      expect(Object.keys(event).sort()).toEqual(['api_version', 'created_at', 'data', 'id', 'livemode', 'object', 'type']);
      // data.object is exactly what the operation answered at that moment.
      expect(event.data.object).toEqual(event.type === 'payment.created' ? created.json : paid.json);
    }
  });

  it('delivers Live events to Live endpoints only', async () => {
    const created = await createPayment(ref, { amount: '1', metadata: { mode: 'ok' } }, { key: ref.profile.keys.live });
    await receiver.waitFor((all) => all.some(forPayment(created.json.id)));
    await new Promise((r) => setTimeout(r, 100));
    const mine = receiver.received.filter(forPayment(created.json.id));
    expect(mine.map((r) => r.path)).toEqual(['/hooks/live-all']);
    expect(eventOf(mine[0]!).livemode).toBe(true);
    expect(verify(mine[0]!, secretOf(ref, '/hooks/live-all'))).toBe(true);
  });

  it('retries a failing endpoint 8 times in all, on the scaled schedule, with the same id and bytes; never follows redirects', async () => {
    const failing = (await createPayment(ref, { amount: '1', metadata: { mode: 'fail' } })).json.id;
    const redirecting = (await createPayment(ref, { amount: '1', metadata: { mode: 'redirect' } })).json.id;
    const total = SCALED_GAPS.reduce((a, b) => a + b, 0);
    await receiver.waitFor(
      (all) => all.filter(forPayment(failing)).length >= 8 && all.filter(forPayment(redirecting)).length >= 8,
      total + 6000,
    );
    // Nothing after the 8th attempt.
    await new Promise((r) => setTimeout(r, 300));
    for (const id of [failing, redirecting]) {
      const attempts = receiver.received.filter(forPayment(id));
      expect(attempts).toHaveLength(8);
      expect(new Set(attempts.map((a) => a.body.toString('base64'))).size).toBe(1);
      expect(new Set(attempts.map((a) => a.headers['service-event-id'])).size).toBe(1);
      expect(attempts.every((a) => a.path === '/hooks/test-all')).toBe(true);
      for (let i = 1; i < attempts.length; i += 1) {
        const gap = attempts[i]!.at - attempts[i - 1]!.at;
        expect(gap, `gap before attempt ${i + 1}`).toBeGreaterThanOrEqual(SCALED_GAPS[i - 1]! - 2);
        expect(gap, `gap before attempt ${i + 1}`).toBeLessThan(SCALED_GAPS[i - 1]! + 1500);
      }
    }
    expect(receiver.received.some((r) => r.path === '/redirected-here')).toBe(false);
    const record = ref.built.dispatcher.deliveries.find(
      (d) => d.endpointPath === '/hooks/test-all' && d.attempts.length > 0 && d.state === 'failed' && d.attempts.every((a) => a.status === 302),
    );
    expect(record?.attempts).toHaveLength(8);
  }, 20_000);
});

describe('webhook time-out', () => {
  it('counts a response not completed within the time-out as a failure and retries', async () => {
    let first = true;
    const slow = await startReceiver((_r, res) => {
      if (first) {
        first = false;
        res.writeHead(200);
        res.write('partial'); // headers sent, body never finished
        return;
      }
      res.end('ok');
    });
    const r2 = await startReference({ createDelayMs: 0, webhookBaseUrl: slow.url, timeScale: TIME_SCALE, webhookTimeoutMs: 300 });
    try {
      const id = (await createPayment(r2, { amount: '1' })).json.id;
      await slow.waitFor((all) => all.filter(forPayment(id)).length >= 2, 3000);
      await r2.built.dispatcher.whenIdle();
      const delivery = r2.built.dispatcher.deliveries.find((d) => d.endpointPath === '/hooks/test-all');
      expect(delivery?.state).toBe('succeeded');
      expect(delivery?.attempts.map((a) => a.ok)).toEqual([false, true]);
      expect(delivery?.attempts[0]?.error).toMatch(/300 ms/);
    } finally {
      await r2.close();
      await slow.close();
    }
  });

  it('close() cancels scheduled retries', async () => {
    const down = await startReceiver((_r, res) => {
      res.statusCode = 503;
      res.end();
    });
    const r3 = await startReference({ createDelayMs: 0, webhookBaseUrl: down.url, timeScale: 1 });
    await createPayment(r3, { amount: '1' });
    await down.waitFor((all) => all.length >= 2, 3000); // the immediate retry
    await r3.close();
    const n = down.received.length;
    expect(r3.built.dispatcher.deliveries.every((d) => d.state === 'cancelled' || d.state === 'failed' || d.state === 'succeeded')).toBe(true);
    await new Promise((r) => setTimeout(r, 100));
    expect(down.received.length).toBe(n);
    await down.close();
  });
});
