/**
 * esid: What the service does — "Test Payments never touch real money, payment accounts, the
 * receiving bridge device or Service Credit"; "Live creation runs only a UX-level check".
 * A Test create asking for methods and channels the Live side lacks is never answered with a
 * Live-only 409 (payment_method_unavailable, payment_channel_unavailable,
 * payment_detection_not_ready, insufficient_credit): it is a valid request, 201.
 */
import fc from 'fast-check';
import { LIVE_ONLY_CODES } from '../../catalogue/index.ts';
import { COLLECTION_CHANNELS, PAYMENT_METHODS } from '../../service/generators/create-payment-request.ts';
import { validAmount } from '../../service/generators/valid-amount.ts';
import { ruleTest } from '../../service/harness/worker/rule-test.ts';
import { Mismatch, expectStatus } from '../../service/harness/worker/expect.ts';
import { share } from '../../service/harness/worker/depth.ts';

ruleTest('ISO-TEST-NO-LIVE-409', async (t) => {
  const receiving = t.profile.live_receiving;
  const lacking = <T extends string>(all: readonly T[], has: readonly string[] | undefined): T[] => {
    const missing = all.filter((v) => !(has ?? []).includes(v));
    return missing.length ? missing : [...all];
  };
  const methods = lacking(PAYMENT_METHODS, receiving?.methods);
  const channels = lacking(COLLECTION_CHANNELS, receiving?.channels);
  t.note(`methods tried: ${methods.join(', ')}; channels tried: ${channels.join(', ')}${receiving ? ' (what live_receiving lacks)' : ' (live_receiving absent: all)'}`);
  const cases = fc.record({
    amount: validAmount({ maxIntegerDigits: 6 }),
    allowed_methods: fc.option(fc.subarray(methods, { minLength: 1 }), { nil: undefined }),
    allowed_channels: fc.option(fc.subarray(channels, { minLength: 1 }), { nil: undefined }),
  });
  await t.property(cases, async (c) => {
    const body = { ...c, external_id: t.externalId('nolive'), metadata: t.metadata() };
    const res = await t.client.createPayment(t.keys.test, body);
    const code = res.json?.error?.code;
    if ((LIVE_ONLY_CODES as readonly string[]).includes(code)) {
      throw new Mismatch(`a Test create answered ${res.status} ${code}, a Live-only check`, { status: 201 }, { status: res.status, code });
    }
    expectStatus(res, 201, 'a valid Test create asking for what the Live side lacks');
  }, { runs: share(t.runs, 0.12) });
});
