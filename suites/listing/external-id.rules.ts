/**
 * esid: Endpoints › listPayments query parameters — "external_id | string | filter";
 *       CreatePaymentRequest — "external_id ... unique per business and per livemode when set".
 *
 * The filter lists exactly the Payment carrying that external_id: not one whose external_id
 * merely starts with it or extends it, nor one that differs only in letter case, and nothing for
 * an external_id nobody used. External ids
 * carry this run's marker, so no other run's Payment can match them.
 */
import fc from 'fast-check';
import { ruleTest } from '../../service/harness/worker/rule-test.ts';
import { expectTrue } from '../../service/harness/worker/expect.ts';
import { listPage } from './window.ts';
import { share } from '../../service/harness/worker/depth.ts';
import { EXTERNAL_ID_FILTER_CASES } from '../../service/generators/cases/listing.ts';

ruleTest('LIST-FILTER-EXTERNAL-ID', async (t) => {
  const base = t.externalId('xf');
  // Pairs whose external ids extend one another: a prefix or "contains" match would mix them up.
  const short = await t.createPayment({ external_id: base, amount: '11.00' });
  const long = await t.createPayment({ external_id: `${base}-2`, amount: '12.00' });
  const longer = await t.createPayment({ external_id: `${base}-2-3`, amount: '13.00' });
  // The same letters in upper case: another external_id (issue 25), which a case-folding match would mix up.
  const upper = await t.createPayment({ external_id: base.toUpperCase(), amount: '14.00' });
  const cancel = await t.client.cancelPayment(t.keys.test, long.id);
  expectTrue(cancel.status === 200, `setup: cancelling a PENDING Payment answered ${cancel.status}`);
  const cases: Array<{ ext: string; want: string[] }> = [
    { ext: base, want: [short.id] },
    { ext: `${base}-2`, want: [long.id] },
    { ext: `${base}-2-3`, want: [longer.id] },
    { ext: base.toUpperCase(), want: [upper.id] },
    { ext: `${base}-2`.toUpperCase(), want: [] },
    { ext: `${base}-`, want: [] },
    { ext: `${base}-2-`, want: [] },
    { ext: t.externalId('never-used'), want: [] },
  ];
  const check = async ({ c, limit }: { c: (typeof cases)[number]; limit: number | undefined }) => {
    const page = await listPage(t, { external_id: c.ext, limit }, `external_id=${c.ext}${limit ? `&limit=${limit}` : ''}`);
    expectTrue(page.ids.length === c.want.length && page.ids.every((id, i) => id === c.want[i]),
      `external_id=${c.ext} listed ${JSON.stringify(page.ids)}, expected ${JSON.stringify(c.want)}`, c.want, page.ids);
    for (const p of page.items) {
      expectTrue(p?.external_id === c.ext, `external_id=${c.ext} listed ${p?.id} whose external_id is ${JSON.stringify(p?.external_id)}`, c.ext, p?.external_id);
    }
  };
  // Every case at limit 1 and without limit on every seed, then random pairings.
  await t.cases(EXTERNAL_ID_FILTER_CASES, ({ index, limit }) => check({ c: cases[index]!, limit }), { concurrency: 1 });
  await t.property(fc.record({ c: fc.constantFrom(...cases), limit: fc.constantFrom(undefined, 1, 5, 100) }), check, { runs: share(t.runs, 0.08) });
  t.note('external ids that extend one another (x, x-2, x-2-3), differ only in case (X) and unused ones: each filter listed exactly its own Payment');
});
