/**
 * esid: Resources and their fields › Payment — the field table (id, object "payment", livemode,
 *       status, amount, currency "BDT", created_at, …; date-times), "livemode | false for Test, true for Live".
 * esid: Endpoints — "createPayment … 201 Payment (status PENDING, with checkout_url)".
 * esid: What the service does — "A merchant server creates a Payment and receives a checkout_url.
 *       The merchant sends the customer to that URL to pay"; "The API is JSON over HTTPS."
 * esid: Resources and their fields › Enumerations — "Clients must tolerate unknown values …"
 *
 * Every Payment answered while driving varied traffic is judged (ambient.ts judges them too);
 * the Live side is read with keys.live (Live writes only with probes.live_writes).
 */
import fc from 'fast-check';
import { validAmount } from '../../service/generators/valid-amount.ts';
import { ruleTest } from '../../service/harness/worker/rule-test.ts';
import { expectStatus, expectTrue, normaliseDecimal } from '../../service/harness/worker/expect.ts';
import { unknownEnumValues, validate, type OperationId } from '../../catalogue/schemas/index.ts';
import { describeSeen, driveTraffic, type Seen } from './traffic.ts';
import { share } from '../../service/harness/worker/depth.ts';

const PAYMENT_OPS: ReadonlySet<OperationId> = new Set(['createPayment', 'getPayment', 'cancelPayment', 'simulatePaymentSucceeded', 'simulatePaymentCancelled']);

/** The Payments an answer carries: the body of a 2xx Payment operation, or the data of a 2xx list. */
function paymentsOf(s: Seen): unknown[] {
  if (s.op === null || s.res.status < 200 || s.res.status >= 300) return [];
  if (PAYMENT_OPS.has(s.op)) return [s.res.json];
  if (s.op === 'listPayments' && Array.isArray(s.res.json?.data)) return s.res.json.data;
  return [];
}

function isAbsoluteUrl(u: unknown): u is string {
  return typeof u === 'string' && URL.canParse(u);
}

ruleTest('RESP-PAYMENT-SCHEMA', async (t) => {
  let judged = 0;
  await driveTraffic(t, (s) => {
    for (const [i, p] of paymentsOf(s).entries()) {
      const v = validate('Payment', p);
      expectTrue(v.valid, `${describeSeen(s)} answered ${s.res.status} with a Payment${s.op === 'listPayments' ? ` (data[${i}])` : ''} that does not validate: ${v.errors.slice(0, 3).join('; ')}`, 'Payment', p);
      judged++;
    }
  });
  t.note(`${judged} Payment representations validated against the Payment schema`);
});

/** What only a Payment answered under a Live key shows: livemode true. */
const LIVE_MEANING = ['overview.environment.live', 'payment.field.livemode#meaning'];

function checkLivemode(s: Seen): void {
  if (s.keyLivemode === undefined) return;
  for (const p of paymentsOf(s)) {
    const got = (p as { livemode?: unknown } | null)?.livemode;
    expectTrue(got === s.keyLivemode, `${describeSeen(s)}: Payment ${(p as { id?: unknown })?.id} has livemode ${JSON.stringify(got)} under a ${s.keyLivemode ? 'Live' : 'Test'} key`, s.keyLivemode, got);
  }
}

ruleTest('RESP-PAYMENT-LIVEMODE', async (t) => {
  await driveTraffic(t, checkLivemode);
}, { title: 'every Payment answered under a Test key has livemode false, under a Live key true (varied traffic)' });

ruleTest('RESP-PAYMENT-LIVEMODE', async (t) => {
  // Without keys.live no answer under a Live key: the other test's traffic shows livemode false only.
  const noKey = 'the profile has no keys.live: no Payment was answered under a Live key';
  if (!t.keys.live) for (const o of LIVE_MEANING) t.notTried(o, noKey, ['keys.live']);
  t.need('keys.live');
  const live = t.keys.live!;
  const liveWrites = t.profile.probes?.live_writes === true;
  const expectLive = (p: any, what: string) => expectTrue(p?.livemode === true, `${what}: Payment ${p?.id} has livemode ${JSON.stringify(p?.livemode)} under the Live key`, true, p?.livemode);
  const ids = new Set<string>();
  if (liveWrites) {
    const created = await t.createPayment({ amount: '15.00' }, live);
    expectLive(created, 'createPayment 201');
    ids.add(created.id);
  }
  const list = await t.client.listPayments(live, { limit: 10 });
  expectStatus(list, 200, 'listPayments under the Live key');
  for (const p of Array.isArray(list.json?.data) ? list.json.data : []) {
    expectLive(p, 'listPayments under the Live key');
    if (typeof p?.id === 'string' && ids.size < 3) ids.add(p.id);
  }
  for (const id of ids) {
    const g = await t.client.getPayment(live, id);
    expectStatus(g, 200, 'getPayment under the Live key');
    expectLive(g.json, 'getPayment under the Live key');
  }
  if (liveWrites) {
    const [first] = ids;
    const c = await t.client.cancelPayment(live, first!);
    expectStatus(c, 200, 'cancelPayment of a PENDING Live Payment');
    expectLive(c.json, 'cancelPayment under the Live key');
  }
  if (ids.size === 0) {
    const why = 'no Live Payment to read (none listed under keys.live, and probes.live_writes is off): livemode true was never seen';
    for (const o of LIVE_MEANING) t.notTried(o, why, ['probes.live_writes']);
  }
  else t.note(`${ids.size} Live Payment(s) read under the Live key, all livemode true${liveWrites ? '' : ' (reads only)'}`);
}, { title: 'under the Live key every Payment listed, read (and, with probes.live_writes, created and cancelled) has livemode true' });

ruleTest('RESP-PAYMENT-CHECKOUT-URL', async (t) => {
  let created = 0;
  await driveTraffic(t, (s) => {
    if (s.op !== 'createPayment' || s.res.status !== 201) return;
    const p = s.res.json;
    // A replay returns "the original result"; whether that is the original snapshot or the
    // current state is not shown (IDEM-REPLAY-BODY), so only first answers must read PENDING.
    if (!s.replay) expectTrue(p?.status === 'PENDING', `${describeSeen(s)} answered 201 with status ${JSON.stringify(p?.status)}, expected PENDING`, 'PENDING', p?.status);
    expectTrue(isAbsoluteUrl(p?.checkout_url), `${describeSeen(s)} answered 201 with checkout_url ${JSON.stringify(p?.checkout_url)}, expected an absolute URL`, 'an absolute URL', p?.checkout_url ?? null);
    created++;
  });
  t.note(`${created} created Payments, each PENDING with an absolute checkout_url`);
});

ruleTest('RESP-CHECKOUT-URL-HTTPS', async (t) => {
  const hosts = new Set<string>();
  await driveTraffic(t, (s) => {
    for (const p of paymentsOf(s)) {
      const u = (p as { checkout_url?: unknown } | null)?.checkout_url;
      if (!isAbsoluteUrl(u)) continue; // absent/null or relative: RESP-PAYMENT-CHECKOUT-URL's business
      const url = new URL(u);
      expectTrue(url.protocol === 'https:', `${describeSeen(s)}: checkout_url ${JSON.stringify(u)} is not an https URL`, 'https:', url.protocol);
      hosts.add(url.host);
    }
  });
  t.note(`checkout_url hosts seen: ${[...hosts].slice(0, 5).join(', ')}`);
});

ruleTest('RESP-ENUM-KNOWN', async (t) => {
  let judged = 0;
  await driveTraffic(t, (s) => {
    if (s.op === null || s.res.status < 200 || s.res.status >= 300) return;
    const schema = s.op === 'listPayments' ? 'PaymentList' : 'Payment';
    const unknown = unknownEnumValues(schema, s.res.json);
    expectTrue(unknown.length === 0, `${describeSeen(s)}: ${unknown.map((u) => `${u.path} = ${JSON.stringify(u.value)} is not one of ${u.known.join(', ')}`).join('; ')}`, unknown[0]?.known, unknown.map((u) => u.value));
    judged++;
  });
  t.note(`${judged} success answers, no undocumented enumeration value`);
});

/**
 * OBSERVE: the spec says only "decimal string, BDT major units"; whether "10.5" comes back as
 * "10.5" or "10.50" is left open. Decimal equality itself is CREATE-AMOUNT-DECIMAL-EXACT's.
 */
ruleTest('RESP-AMOUNT-FORMAT', async (t) => {
  const samples: Record<string, { created: unknown; read: unknown }> = {};
  const forms = new Set<string>();
  const classify = (sent: string, got: unknown): string => {
    if (got === sent) return 'echoed as sent';
    if (typeof got !== 'string') return `not a string (${typeof got})`;
    if (normaliseDecimal(got) !== normaliseDecimal(sent)) return 'a different value';
    if (/^\d+\.\d{2}$/.test(got)) return 'normalised to two decimals';
    return 'normalised otherwise';
  };
  const probe = async (amount: string, keep: boolean) => {
    const p = await t.createPayment({ amount });
    const g = await t.client.getPayment(t.keys.test, p.id);
    forms.add(classify(amount, p.amount));
    if (g.status === 200 && g.json?.amount !== p.amount) forms.add('read back differently from the 201');
    if (keep) samples[amount] = { created: p.amount, read: g.json?.amount };
  };
  for (const amount of ['10.5', '10', '10.50', '10.00', '0.01', '0.1', '12345678901234567.89']) await probe(amount, true);
  await t.property(validAmount(), async (amount) => probe(amount, false), { runs: share(t.runs, 0.1) });
  t.observe('samples', samples);
  t.observe('form', forms.size === 1 ? [...forms][0] : [...forms].sort());
});
