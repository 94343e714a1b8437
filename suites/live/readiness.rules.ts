/**
 * esid: What the service does — "Live creation runs only a UX-level check: an enabled,
 * bridge-ready receiving method exists, and the business has enough Service Credit for the next
 * fee"; Errors — payment_detection_not_ready, insufficient_credit, payment_method_unavailable,
 * payment_channel_unavailable (409, live mode).
 * Live writes: every rule here needs probes.live_writes true (the catalogue's needs). Any Live
 * Payment created, on purpose or by a faulty target, is cancelled at the end of its test.
 */
import fc from 'fast-check';
import { COLLECTION_CHANNELS, PAYMENT_METHODS } from '../../service/generators/create-payment-request.ts';
import { validAmount } from '../../service/generators/valid-amount.ts';
import type { ApiResponse } from '../../core/client.ts';
import { ruleTest, type RuleContext } from '../../service/harness/worker/rule-test.ts';
import { expectEqual, expectError, expectStatus } from '../../service/harness/worker/expect.ts';
import { cancelIfPending } from '../_shared/by-external-id.ts';
import { COST_BOUNDS, share } from '../../service/harness/worker/depth.ts';

interface Extra {
  allowed_methods?: string[];
  allowed_channels?: string[];
}

/** Runs `fn` with a Live create function; cancels every Live Payment it created, whatever happens. */
async function withLiveCreates(t: RuleContext, key: string, fn: (create: (extra: Extra, amount?: string) => Promise<ApiResponse>) => Promise<void>): Promise<void> {
  const created: string[] = [];
  const create = async (extra: Extra, amount = '10.00') => {
    const res = await t.client.createPayment(key, { amount, ...extra, external_id: t.externalId('live'), metadata: t.metadata() });
    if (res.status === 201 && typeof res.json?.id === 'string') created.push(res.json.id);
    return res;
  };
  try {
    await fn(create);
  } finally {
    await cancelIfPending(t, key, created);
  }
}

const amounts = validAmount({ maxIntegerDigits: 5 });

ruleTest('LIVE-NOT-READY', async (t) => {
  await withLiveCreates(t, t.keys.live_not_ready!, async (create) => {
    await t.property(amounts, async (amount) => {
      expectError(await create({}, amount), 409, ['payment_detection_not_ready'], `keys.live_not_ready create of ${amount}`);
    }, { runs: share(t.runs, 0.03, COST_BOUNDS.liveWrites) });
  });
});

ruleTest('LIVE-NO-CREDIT', async (t) => {
  await withLiveCreates(t, t.keys.live_no_credit!, async (create) => {
    await t.property(amounts, async (amount) => {
      expectError(await create({}, amount), 409, ['insufficient_credit'], `keys.live_no_credit create of ${amount}`);
    }, { runs: share(t.runs, 0.03, COST_BOUNDS.liveWrites) });
  });
});

function lacking<T extends string>(all: readonly T[], has: readonly string[]): T[] {
  return all.filter((v) => !has.includes(v));
}

ruleTest('LIVE-METHOD-UNAVAILABLE', async (t) => {
  const receiving = t.profile.live_receiving!;
  const missing = lacking(PAYMENT_METHODS, receiving.methods);
  if (missing.length === 0) t.skip(`live_receiving.methods (${receiving.methods.join(', ')}) lists every method: none is unavailable`);
  await withLiveCreates(t, t.keys.live!, async (create) => {
    const check = async (methods: string[]) => {
      expectError(await create({ allowed_methods: methods }), 409, ['payment_method_unavailable'], `keys.live with allowed_methods ${JSON.stringify(methods)} (live_receiving.methods ${JSON.stringify(receiving.methods)})`);
    };
    await check(missing);
    await t.property(fc.subarray(missing, { minLength: 1 }), check, { runs: share(t.runs, 0.03, COST_BOUNDS.liveWrites) });
  });
});

ruleTest('LIVE-CHANNEL-UNAVAILABLE', async (t) => {
  const receiving = t.profile.live_receiving!;
  const missing = lacking(COLLECTION_CHANNELS, receiving.channels);
  if (missing.length === 0) t.skip(`live_receiving.channels (${receiving.channels.join(', ')}) lists every channel: none is unavailable`);
  if (receiving.methods.length === 0) t.skip('live_receiving.methods is empty: nothing is ready, so payment_detection_not_ready would apply first');
  await withLiveCreates(t, t.keys.live!, async (create) => {
    const check = async ([channels, withMethods]: [string[], boolean]) => {
      const extra: Extra = { allowed_channels: channels, ...(withMethods ? { allowed_methods: [...receiving.methods] } : {}) };
      expectError(await create(extra), 409, ['payment_channel_unavailable'], `keys.live with ${JSON.stringify(extra)} (live_receiving.channels ${JSON.stringify(receiving.channels)})`);
    };
    await check([missing, false]);
    await t.property(fc.tuple(fc.subarray(missing, { minLength: 1 }), fc.boolean()), check, { runs: share(t.runs, 0.04, COST_BOUNDS.liveWrites) });
  });
});

ruleTest('LIVE-READY-CREATES', async (t) => {
  const receiving = t.profile.live_receiving;
  // What is surely receivable: nothing asked, or everything live_receiving declares (a subset of
  // methods and a subset of channels might not meet on one receiving number).
  const variants: Extra[] = [{}];
  if (receiving && receiving.methods.length && receiving.channels.length) {
    variants.push({ allowed_methods: [...receiving.methods] }, { allowed_channels: [...receiving.channels] }, { allowed_methods: [...receiving.methods], allowed_channels: [...receiving.channels] });
  }
  await withLiveCreates(t, t.keys.live!, async (create) => {
    await t.property(fc.tuple(fc.constantFrom(...variants), amounts), async ([extra, amount]) => {
      const res = await create(extra, amount);
      expectStatus(res, 201, `keys.live create of ${amount} with ${JSON.stringify(extra)}`);
      expectEqual(res.json?.livemode, true, 'livemode of the Live Payment');
      expectEqual(res.json?.status, 'PENDING', 'status of the Live Payment');
      const back = await t.client.getPayment(t.keys.live!, res.json.id);
      expectStatus(back, 200, 'reading the Live Payment back');
      expectEqual([back.json?.livemode, back.json?.status], [true, 'PENDING'], 'livemode and status read back');
    }, { runs: share(t.runs, 0.04, COST_BOUNDS.liveWrites) });
  });
});
