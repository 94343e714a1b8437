/**
 * esid: Versioning — "The API major version is the `/v1` path prefix. Events carry `api_version`
 *       equal to `v1`." Resources › Event — "api_version: string, always v1".
 *
 * Every event the target sends for this run's Payments (payment.created, payment.cancelled from
 * cancel and from the cancel helper, payment.paid; payment.reversed and endpoint.test when the
 * profile offers the control capability; a Live Payment's events when `probes.live_writes`), as the
 * webhook sink received it at every endpoint, carries `"api_version": "v1"`. Whether the events
 * arrive at all is the webhooks area's business (HOOK-AT-LEAST-ONCE): this rule judges those that
 * did, and is SKIP when none did.
 */
import { ruleTest } from '../../service/harness/worker/rule-test.ts';
import { expectEqual, expectTrue } from '../../service/harness/worker/expect.ts';
import type { Delivery } from '../../service/sink/index.ts';
import { awaitDeliveries } from '../_shared/arrivals.ts';
import { bodyOf, describe, FIRST_DELIVERY_MS } from '../_shared/deliveries.ts';
import { controlRequest, tell, type Story } from '../_shared/stories.ts';
import { allTypesEndpoint, hooks, liveWrites } from '../_shared/webhook-hooks.ts';

ruleTest('VERS-EVENT-API-VERSION', async (t) => {
  const h = hooks(t);
  const stories: Story[] = [
    await tell(t, { ops: ['cancel'] }),
    await tell(t, { ops: t.profile.control ? ['succeed', 'reverse'] : ['succeed'] }),
    await tell(t, { ops: ['helper-cancel'] }),
  ];
  if (liveWrites(t) && allTypesEndpoint(h, true)) stories.push(await tell(t, { live: true, ops: ['cancel'] }));
  const arrivals = await awaitDeliveries(h, stories);
  const deliveries: Delivery[] = [...arrivals.deliveries];

  const testAll = allTypesEndpoint(h, false);
  if (t.profile.control && testAll) {
    const sent = await controlRequest(t, 'POST', '/endpoints/test', { path: testAll.path });
    const eventId = typeof sent.json?.event_id === 'string' ? sent.json.event_id : undefined;
    if (sent.status === 202 && eventId) {
      deliveries.push(...(await h.sink.waitFor({ eventId }, { count: 1, timeoutMs: FIRST_DELIVERY_MS, pollMs: 50 }).catch(() => [])));
    } else {
      t.note(`Send test event answered ${sent.status}${eventId ? '' : ' without an event_id'}: endpoint.test not covered`);
    }
  }

  if (deliveries.length === 0) t.skip(`no event of this run's Payments reached the sink within ${FIRST_DELIVERY_MS / 1000} s (delivery is the webhooks area's rules)`);
  if (arrivals.missing.length) t.note(`${arrivals.missing.length} expected deliveries did not arrive in time; the api_version of those that did was checked`);

  const types: Record<string, number> = {};
  for (const d of deliveries) {
    const body = bodyOf(d);
    if (body === undefined || body === null || typeof body !== 'object') continue; // not JSON: the webhooks area's business
    const type = String(body.type ?? d.event?.type);
    types[type] = (types[type] ?? 0) + 1;
    expectTrue('api_version' in body, `${describe(d)}: the event has no api_version`, { api_version: 'v1' }, { api_version: null });
    expectEqual(body.api_version, 'v1', `api_version of ${describe(d)}`);
  }
  t.note(`${deliveries.length} deliveries checked: ${Object.entries(types).map(([ty, n]) => `${ty} ×${n}`).join(', ')}`);
});
