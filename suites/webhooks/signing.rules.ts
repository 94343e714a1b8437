/**
 * esid: Events › Signature 1-2 — "v1 is the lowercase hex HMAC-SHA256, keyed with the endpoint's
 *       signing secret, over the string `<t>.` followed by the exact raw body bytes received (never
 *       re-serialised JSON)"; "The receiver rejects a timestamp older than 5 minutes".
 *       Events › Delivery request — POST, JSON Event, `Service-Event-ID` (the event id),
 *       `Service-Signature: t=<unix_time>,v1=<hex>`, `User-Agent: Service-Webhooks/1.0`.
 *       Authentication — "each webhook endpoint has its own signing secret".
 *
 * Each test causes events (a create and the succeed helper, so `payment.paid` reaches every Test
 * endpoint subscribed to it as well as the "*" one; a Live create when `probes.live_writes`), lets
 * some first attempts fail so retries are judged too, and judges every delivery the sink recorded
 * for those Payments. The signature is recomputed here from the profile's secrets over the raw bytes
 * the sink kept; its freshness is judged apart (HOOK-TIMESTAMP-FRESH).
 */
import { eventTextFields } from '../../service/generators/event-text-fields.ts';
import { ruleTest, type RuleContext } from '../../service/harness/worker/rule-test.ts';
import { Mismatch, expectTrue } from '../../service/harness/worker/expect.ts';
import { deliveryBody, verifySignature, type Delivery } from '../../service/sink/index.ts';
import { awaitDeliveries } from '../_shared/arrivals.ts';
import { bodyOf, describe, evidenceOf, FIRST_DELIVERY_MS } from '../_shared/deliveries.ts';
import { controlRequest, tell, type Story } from '../_shared/stories.ts';
import { endpointAt, hooks, liveWrites, type Hooks } from '../_shared/webhook-hooks.ts';
import { TIMESTAMP_TOLERANCE_S, USER_AGENT } from './limits.ts';
import { COST_BOUNDS, share } from '../../service/harness/worker/depth.ts';

/** Events on a few Payments (one with a failed first attempt, so a retry is judged too), as the sink got them. */
async function traffic(t: RuleContext, h: Hooks, o: { body?: Record<string, unknown>; endpointTest?: boolean } = {}): Promise<Delivery[]> {
  const stories: Story[] = [
    await tell(t, { ops: ['succeed'], body: o.body }),
    await tell(t, { ops: ['cancel'], sink: 'fail:503x1' }),
  ];
  if (liveWrites(t) && h.endpoints.some((e) => e.livemode && e.enabled)) stories.push(await tell(t, { live: true, ops: ['cancel'] }));
  // What arrives is judged; whether everything arrives is HOOK-AT-LEAST-ONCE's business, so the
  // wait also ends once nothing new came for a second.
  const arrivals = await awaitDeliveries(h, stories, { attempts: 1, settleMs: 1000 });
  // The retry of the failed first attempts (immediately after the failure).
  const retried = await awaitDeliveries(h, [stories[1]!], { attempts: 2, settleMs: 1000 });
  const all = [...arrivals.deliveries.filter((d) => d.event?.paymentId !== stories[1]!.paymentId), ...retried.deliveries];
  if (all.length === 0) t.skip(`no event of this test's Payments reached the sink within ${FIRST_DELIVERY_MS / 1000} s (HOOK-AT-LEAST-ONCE judges delivery)`);
  if (o.endpointTest && t.profile.control) {
    const target = h.endpoints.find((e) => e.enabled && !e.livemode && e.events === '*') ?? h.endpoints.find((e) => e.enabled && !e.livemode);
    if (target) {
      const res = await controlRequest(t, 'POST', '/endpoints/test', { path: target.path });
      const eventId = typeof res.json?.event_id === 'string' ? res.json.event_id : undefined;
      if (res.status === 202 && eventId) {
        const got = await h.sink.waitFor({ eventId, path: target.path }, { count: 1, timeoutMs: 10_000, pollMs: 50 }).catch(() => []);
        all.push(...got);
      }
    }
  }
  return all.sort((a, b) => a.seq - b.seq);
}

/** The HMAC check of Signature 1 with one secret, the timestamp window left out. */
function hmacVerdict(d: Delivery, secret: string) {
  const header = d.headers['service-signature'];
  return verifySignature({ header, rawBody: deliveryBody(d), secrets: [secret], toleranceSeconds: null });
}

ruleTest('HOOK-SIGNATURE-VALID', async (t) => {
  const h = hooks(t);
  let checked = 0;
  await t.property(
    eventTextFields(),
    async (fields) => {
      const ds = await traffic(t, h, { body: fields as unknown as Record<string, unknown> });
      for (const d of ds) {
        const own = endpointAt(h, d.path);
        if (!own) continue; // not a profile endpoint: nothing to verify against
        const header = d.headers['service-signature'];
        expectTrue(header !== undefined, `${describe(d)} has no Service-Signature header`, 't=<unix_time>,v1=<hex>', evidenceOf(d));
        const v = hmacVerdict(d, own.secret);
        if (!v.valid) {
          throw new Mismatch(
            `${describe(d)}: Service-Signature does not verify with ${d.path}'s secret over "<t>." + the raw body (${v.problem}${v.detail ? `: ${v.detail}` : ''})`,
            { signature: `HMAC-SHA256(${d.path} secret, "<t>." + raw body), lowercase hex` },
            { header, verdict: v, delivery: evidenceOf(d) },
          );
        }
        checked++;
      }
    },
    { runs: share(t.runs, 0.06, COST_BOUNDS.deliveryWaits) },
  );
  t.note(`${checked} deliveries verified (raw bytes, each endpoint's own secret), bodies with non-ASCII text`);
});

ruleTest('HOOK-SIGNATURE-OWN-SECRET', async (t) => {
  const h = hooks(t);
  const ds = await traffic(t, h, { endpointTest: true });
  const paths = new Set<string>();
  for (const d of ds) {
    const own = endpointAt(h, d.path);
    if (!own) continue;
    paths.add(d.path);
    t.checked();
    if (hmacVerdict(d, own.secret).valid) continue;
    const other = h.endpoints.find((e) => e.path !== d.path && hmacVerdict(d, e.secret).valid);
    if (other) {
      throw new Mismatch(`${describe(d)} is signed with ${other.path}'s secret, not ${d.path}'s own`, { signedWith: d.path }, { signedWith: other.path, delivery: evidenceOf(d) });
    }
    // Signed with no endpoint's secret at all: HOOK-SIGNATURE-VALID's finding, not this rule's.
    t.note(`${describe(d)} verifies with no endpoint's secret (see HOOK-SIGNATURE-VALID)`);
  }
  if (paths.size < 2) t.note(`deliveries reached only ${[...paths].join(', ') || 'no endpoint'}: with one endpoint, no other secret could be confused`);
  else t.note(`deliveries to ${[...paths].sort().join(', ')} each signed with their own endpoint's secret`);
});

ruleTest('HOOK-TIMESTAMP-FRESH', async (t) => {
  const h = hooks(t);
  const ds = await traffic(t, h, { endpointTest: true });
  let worst = 0;
  for (const d of ds) {
    const header = d.headers['service-signature'];
    const m = header === undefined ? null : /(?:^|,)t=([0-9]{1,15})(?:,|$)/.exec(header);
    expectTrue(m !== null, `${describe(d)}: Service-Signature carries no t=<unix_time> (${JSON.stringify(header ?? null)})`, 't=<unix_time>,v1=<hex>', header ?? null);
    const age = d.receivedAt / 1000 - Number(m[1]);
    worst = Math.max(worst, Math.abs(age));
    expectTrue(
      Math.abs(age) <= TIMESTAMP_TOLERANCE_S,
      `${describe(d)}: signature timestamp t=${m[1]} is ${Math.round(age)} s ${age >= 0 ? 'before' : 'after'} its arrival (at most ${TIMESTAMP_TOLERANCE_S} s)`,
      { ageSeconds: `within ±${TIMESTAMP_TOLERANCE_S}` },
      { t: Number(m[1]), arrival: new Date(d.receivedAt).toISOString(), ageSeconds: Math.round(age) },
    );
  }
  t.note(`${ds.length} deliveries, largest |arrival − t| ${worst.toFixed(1)} s`);
});

ruleTest('HOOK-HEADERS', async (t) => {
  const h = hooks(t);
  const ds = await traffic(t, h, { endpointTest: true });
  for (const d of ds) {
    expectTrue(d.method === 'POST', `${describe(d)} was a ${d.method}, expected POST`, 'POST', d.method);
    const body = bodyOf(d);
    const eventId = d.headers['service-event-id'];
    expectTrue(
      typeof body?.id === 'string' && eventId === body.id,
      `${describe(d)}: Service-Event-ID ${JSON.stringify(eventId ?? null)} is not the body's id ${JSON.stringify(body?.id ?? null)}`,
      { 'service-event-id': body?.id ?? '(the body id)' },
      { 'service-event-id': eventId ?? null },
    );
    const ua = d.headers['user-agent'];
    expectTrue(ua === USER_AGENT, `${describe(d)}: User-Agent is ${JSON.stringify(ua ?? null)}, expected ${USER_AGENT}`, USER_AGENT, ua ?? null);
    expectTrue(d.headers['service-signature'] !== undefined, `${describe(d)} has no Service-Signature header`, 't=<unix_time>,v1=<hex>', null);
  }
  t.note(`${ds.length} deliveries (first attempts, retries, ${t.profile.control ? 'endpoint.test, ' : ''}every endpoint reached)`);
});

ruleTest('HOOK-JSON-CONTENT-TYPE', async (t) => {
  const h = hooks(t);
  const ds = await traffic(t, h, { endpointTest: true });
  for (const d of ds) {
    const ct = d.headers['content-type'];
    expectTrue(
      ct !== undefined && /^application\/json\s*(;|$)/i.test(ct),
      `${describe(d)}: Content-Type is ${JSON.stringify(ct ?? null)}, expected application/json`,
      'application/json',
      ct ?? null,
    );
  }
  t.note(`${ds.length} deliveries declared application/json`);
});
