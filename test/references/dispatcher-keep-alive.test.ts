/**
 * The reference's kept-alive webhook deliveries (deliveryConnections 'keep-alive') honour the
 * receiver's `Keep-Alive: timeout=N`: an idle socket is dropped 1 s before N, so no attempt goes
 * out on a socket the receiver is closing (a reset there is a failed attempt the receiver never
 * caused, then a retry the schedule did not call for).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_FAULTS } from '../../references/service/faults.ts';
import type { StoredEvent, WebhookEndpoint } from '../../references/service/types.ts';
import { WebhookDispatcher } from '../../references/service/webhooks/dispatcher.ts';
import { startCountingServer, type CountingServer } from '../support/counting-server.ts';

describe('kept-alive webhook deliveries', () => {
  let receiver: CountingServer;
  beforeAll(async () => {
    receiver = await startCountingServer({ keepAliveMs: 2_000 }); // announces Keep-Alive: timeout=2
  });
  afterAll(async () => receiver?.close());

  const endpoint: WebhookEndpoint = { path: '/hooks', businessId: 'biz_1', env: 'test', events: '*', secret: 'whsec_test', enabled: true };
  const event = (n: number): StoredEvent => ({
    id: `evt_${n}`,
    type: 'payment.created',
    livemode: false,
    createdAt: Date.now(),
    businessId: 'biz_1',
    env: 'test',
    paymentId: 'pay_1',
    body: Buffer.from(`{"id":"evt_${n}"}`),
  });

  it('reuses a fresh connection, and opens a new one once idle past the announced time-out less 1 s', async () => {
    const d = new WebhookDispatcher({
      baseUrl: receiver.url,
      timeScale: 1,
      timeoutMs: 5_000,
      now: Date.now,
      faults: NO_FAULTS,
      connections: 'keep-alive',
    });
    try {
      d.deliver(event(1), [endpoint]);
      await d.whenIdle();
      d.deliver(event(2), [endpoint]);
      await d.whenIdle();
      expect(receiver.connections, 'reused at once').toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 1_400)); // past 2 s - 1 s, before the receiver's 2 s
      d.deliver(event(3), [endpoint]);
      await d.whenIdle();
      expect(receiver.connections, 'a new one after 1.4 s idle').toBe(2);
      expect(d.deliveries.map((x) => x.attempts.map((a) => a.status))).toEqual([[200], [200], [200]]);
    } finally {
      await d.close();
    }
  });
});
