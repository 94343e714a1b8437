/**
 * esid: Endpoints › listPayments query parameters — "limit | integer | 1 to 100, default 20";
 *       "starting_after | string | a Payment id; returns results immediately after it";
 *       "Sort order of the list and the relation of next_cursor to starting_after: not shown."
 *       Resources and their fields › PaymentList — "has_more | boolean | yes".
 *
 * Every test of this file works on one batch of this run's Payments and the created_at window
 * that isolates it (window.ts): the target is shared, so the window may hold other runs'
 * Payments too, and every check is about this run's Payments being visited exactly once,
 * about repeats, and about counts that the closed window makes stable.
 */
import fc from 'fast-check';
import { ruleTest, type RuleContext } from '../../service/harness/worker/rule-test.ts';
import { expectTrue, Mismatch } from '../../service/harness/worker/expect.ts';
import { PAYMENT_STATUSES } from '../../catalogue/schemas/index.ts';
import { batchOf, expectEachOnce, listPage, pageThrough, rfc3339, type Batch, type Paged } from './window.ts';
import { share } from '../../service/harness/worker/depth.ts';
import { batched, eachCase } from '../../service/harness/worker/batch.ts';
import { LIMIT_RESPECTED_CASES, ONE_MATCH_CASES, STATUS_FILTER_CASES, TIGHT_RANGE_CASES, type TightRangeRow } from '../../service/generators/cases/listing.ts';

/** Limits whose paging over the window stays within about 25 pages: the edges (every seed), then random ones. */
function pagingLimits(b: Batch): { edges: number[]; arb: fc.Arbitrary<number> } {
  const lo = Math.max(1, Math.ceil(b.count / 25));
  const hi = Math.max(lo, Math.min(100, b.count));
  return { edges: [...new Set([lo, hi, Math.min(100, Math.max(lo, b.count - 1))])], arb: fc.integer({ min: lo, max: hi }) };
}

function pagesOf(paged: Paged) {
  return paged.pages.map((p) => ({ starting_after: p.startingAfter, ids: p.ids, has_more: p.hasMore, next_cursor: p.nextCursor }));
}

ruleTest('LIST-PAGINATION-COMPLETE', async (t) => {
  const b = await batchOf(t);
  expectEachOnce(b.baseline, b, 'paging the window with limit=100');
  const limits = pagingLimits(b);
  const check = async (limit: number) => {
    const paged = await pageThrough(t, b.window, limit, Math.ceil(b.count / limit) + 3);
    expectEachOnce(paged, b, `paging the window with limit=${limit}, starting_after = last id of each page`);
    expectTrue(paged.complete, `paging the window (${b.count} matching Payments) with limit=${limit} did not end within ${paged.pages.length} pages`,
      { pages: Math.ceil(b.count / limit) }, pagesOf(paged));
  };
  // Each limit's cursor chain is ordered (a page's last id is the next request's starting_after); the chains are not.
  await eachCase(limits.edges, check);
  await batched(t, limits.arb, check, share(t.runs, 0.08));
  t.note(`window of ${b.count} Payments (${b.payments.length} of this run) paged with several limits; each of this run's Payments listed exactly once, no repeats`);
});

ruleTest('LIST-HAS-MORE', async (t) => {
  const b = await batchOf(t);
  expectEachOnce(b.baseline, b, 'paging the window with limit=100');
  const limits = pagingLimits(b);
  const check = async (limit: number) => {
    const paged = await pageThrough(t, b.window, limit, Math.ceil(b.count / limit) + 3);
    paged.pages.forEach((p, i) => {
      const next = paged.pages[i + 1];
      if (p.hasMore && next) {
        expectTrue(next.ids.length > 0, `limit=${limit}: page ${i + 1} said has_more true, yet the page after it is empty`, 'a non-empty next page', pagesOf(paged));
      }
    });
    const last = paged.pages[paged.pages.length - 1]!;
    expectTrue(!last.hasMore, `limit=${limit}: the window holds ${b.count} Payments, yet page ${paged.pages.length} still says has_more true`, { has_more: false }, pagesOf(paged));
    const lastId = last.ids[last.ids.length - 1];
    if (lastId !== undefined) {
      const after = await listPage(t, { ...b.window, limit, starting_after: lastId }, `after the last page (starting_after=${lastId})`);
      expectTrue(after.ids.length === 0, `limit=${limit}: the last page said has_more false, yet starting_after its last id lists ${after.ids.length} more`,
        { data: [] }, { ids: after.ids });
    }
  };
  await eachCase(limits.edges, check);
  await batched(t, limits.arb, check, share(t.runs, 0.06));
}, { title: 'paging the window: has_more true is followed by more, has_more false by nothing' });

ruleTest('LIST-HAS-MORE', async (t) => {
  const b = await batchOf(t);
  expectEachOnce(b.baseline, b, 'paging the window with limit=100');
  const hi = Math.min(100, b.count + 1);
  const check = async (k: number) => {
    const page = await listPage(t, { ...b.window, limit: k }, `the window with limit=${k}`);
    const want = { has_more: b.count > k, length: Math.min(b.count, k) };
    const got = { has_more: page.hasMore, length: page.ids.length };
    if (want.has_more !== got.has_more || want.length !== got.length) {
      throw new Mismatch(`the window holds ${b.count} Payments; limit=${k} answered ${got.length} with has_more ${got.has_more}, expected ${want.length} with has_more ${want.has_more}`, want, got);
    }
  };
  // Edges: one page short of the window, exactly the window, one more than the window, and 1 and 100.
  const window = Math.max(1, Math.min(b.count, 100));
  await eachCase([...new Set([1, Math.max(1, window - 1), window, Math.max(1, hi), 100])], check);
  await batched(t, fc.integer({ min: 1, max: hi }), check, share(t.runs, 0.1));
}, { title: 'has_more is true exactly when the window holds more than limit Payments' });

ruleTest('LIST-HAS-MORE', async (t) => {
  const b = await batchOf(t);
  expectEachOnce(b.baseline, b, 'paging the window with limit=100');
  await t.cases(ONE_MATCH_CASES, async (limit) => {
    const p = b.payments[5]!;
    const page = await listPage(t, { external_id: p.externalId, limit }, `external_id filter, limit=${limit}`);
    expectTrue(page.ids.length === 1 && page.ids[0] === p.id, `external_id=${p.externalId} with limit=${limit} listed ${JSON.stringify(page.ids)}, expected exactly ${p.id}`, [p.id], page.ids);
    expectTrue(!page.hasMore, `external_id=${p.externalId} matches one Payment; with limit=${limit} the page holds it and has_more must be false`, { has_more: false }, { has_more: page.hasMore });
  });
}, { title: 'a filter matching one Payment answers has_more false' });

ruleTest('LIST-LIMIT-RESPECTED', async (t) => {
  const b = await batchOf(t);
  // Pages of nothing respect any limit: the window must list this run's Payments first (no vacuous pass).
  expectEachOnce(b.baseline, b, 'paging the window with limit=100');
  const check = async (limit: number) => {
    const first = await listPage(t, { ...b.window, limit }, `the window with limit=${limit}`);
    const pages = [first];
    const lastId = first.ids[first.ids.length - 1];
    if (first.hasMore && lastId !== undefined) pages.push(await listPage(t, { ...b.window, limit, starting_after: lastId }, `second page, limit=${limit}`));
    pages.forEach((p, i) => {
      expectTrue(p.ids.length <= limit, `limit=${limit}: page ${i + 1} holds ${p.ids.length} Payments`, { atMost: limit }, { length: p.ids.length });
      if (p.hasMore) expectTrue(p.ids.length === limit, `limit=${limit}: page ${i + 1} says has_more true but holds ${p.ids.length} Payments, not ${limit}`, { length: limit }, { length: p.ids.length, has_more: true });
    });
  };
  // Edges of 1..100 on every seed, then random limits.
  await t.cases(LIMIT_RESPECTED_CASES, check);
  await batched(t, fc.integer({ min: 1, max: 100 }), check, share(t.runs, 0.12));
});

ruleTest('LIST-LIMIT-DEFAULT', async (t) => {
  const b = await batchOf(t);
  // A window that lists fewer than this run's own Payments is a failure, not a reason to skip.
  expectEachOnce(b.baseline, b, 'paging the window with limit=100');
  if (b.count <= 20) t.skip(`the window holds only ${b.count} Payments`);
  const page = await listPage(t, { ...b.window }, 'the window without limit');
  expectTrue(page.ids.length === 20, `${b.count} Payments match and no limit is given: the page holds ${page.ids.length}, expected 20 (the default)`, { length: 20 }, { length: page.ids.length });
  expectTrue(page.hasMore, `${b.count} Payments match, the default page holds 20, yet has_more is false`, { has_more: true }, { has_more: page.hasMore });
  const lastId = page.ids[page.ids.length - 1]!;
  const next = await listPage(t, { ...b.window, starting_after: lastId }, 'the window without limit, second page');
  const want = Math.min(20, b.count - 20);
  expectTrue(next.ids.length === want, `second default page holds ${next.ids.length}, expected ${want} (${b.count} match, 20 per page)`, { length: want }, { length: next.ids.length });
  t.note(`${b.count} matching Payments: default pages of 20 and ${next.ids.length}`);
});

/** "created_at desc, id desc" and the like, read off consecutive items of the baseline. */
function describeOrder(items: any[]): { order: string; ties: number; pairs: number } {
  let asc = 0;
  let desc = 0;
  let tieAsc = 0;
  let tieDesc = 0;
  for (let i = 1; i < items.length; i++) {
    const a = items[i - 1];
    const c = items[i];
    const ta = Date.parse(a.created_at);
    const tc = Date.parse(c.created_at);
    if (ta < tc) asc++;
    else if (ta > tc) desc++;
    else if (String(a.id) < String(c.id)) tieAsc++;
    else if (String(a.id) > String(c.id)) tieDesc++;
  }
  const primary = asc && desc ? 'created_at unordered' : asc ? 'created_at asc' : desc ? 'created_at desc' : 'created_at all equal';
  const ties = tieAsc + tieDesc;
  const secondary = ties === 0 ? 'no created_at ties seen' : tieAsc && tieDesc ? 'ties in no id order' : tieAsc ? 'id asc' : 'id desc';
  return { order: `${primary}, ${secondary}`, ties, pairs: Math.max(0, items.length - 1) };
}

ruleTest('LIST-SORT-ORDER', async (t) => {
  const b = await batchOf(t);
  const items = b.baseline.pages.flatMap((p) => p.items);
  const o = describeOrder(items);
  t.observe('order', o.order);
  t.observe('pairs_compared', o.pairs);
  t.observe('created_at_ties', o.ties);
  const small = await pageThrough(t, b.window, 5, Math.ceil(b.count / 5) + 3);
  const across = describeOrder(small.pages.flatMap((p) => p.items));
  t.observe('order_across_pages_of_5', across.order);
});

ruleTest('LIST-CURSOR-RELATION', async (t) => {
  const b = await batchOf(t);
  const limit = Math.max(1, Math.min(7, Math.ceil(b.count / 4)));
  const byId = await pageThrough(t, b.window, limit, Math.ceil(b.count / limit) + 3, 'last-id');
  const withMore = byId.pages.filter((p) => p.hasMore);
  const last = byId.pages[byId.pages.length - 1];
  const equalsLast = withMore.filter((p) => p.nextCursor === p.ids[p.ids.length - 1]).length;
  t.observe('next_cursor_when_has_more', withMore.length === 0 ? 'no page with has_more'
    : equalsLast === withMore.length ? 'the id of the page\'s last Payment'
      : withMore.every((p) => p.nextCursor === null || p.nextCursor === undefined) ? 'absent or null'
        : `an opaque value (equal to the last id on ${equalsLast} of ${withMore.length} pages)`);
  t.observe('next_cursor_on_last_page', last === undefined ? 'no page' : last.nextCursor === undefined ? 'absent' : last.nextCursor);
  const cursors = withMore.map((p) => p.nextCursor).filter((c) => typeof c === 'string' && c !== '');
  if (cursors.length === withMore.length && withMore.length > 0) {
    const byCursor = await pageThrough(t, b.window, limit, Math.ceil(b.count / limit) + 3, 'next_cursor');
    const a = byId.pages.flatMap((p) => p.ids).join(',');
    const c = byCursor.pages.flatMap((p) => p.ids).join(',');
    t.observe('next_cursor_as_starting_after', a === c ? 'lists the same sequence as starting_after = last id' : 'lists a different sequence from starting_after = last id');
  } else {
    t.observe('next_cursor_as_starting_after', 'not tried (no next_cursor on every has_more page)');
  }
  const unknown = await t.client.listPayments(t.keys.test, { limit: 1, starting_after: 'pay_conformance_no_such_id' });
  t.observe('starting_after_unknown_id', `${unknown.status}${unknown.json?.error?.code ? ' ' + unknown.json.error.code : ''}`);
  const foreign = b.payments[0]!.id;
  const other = t.keys.other_test;
  if (other) {
    const r = await t.client.listPayments(other, { limit: 1, starting_after: foreign });
    t.observe('starting_after_other_business_id', `${r.status}${r.json?.error?.code ? ' ' + r.json.error.code : ''}`);
  }
});

ruleTest('LIST-FILTER-STATUS', async (t) => {
  const b = await batchOf(t);
  // Every PaymentStatus, on every seed (a table, not a draw).
  await t.cases(STATUS_FILTER_CASES, async (status) => {
    const paged = await pageThrough(t, { ...b.window, status }, 100, Math.ceil(b.count / 100) + 3);
    const items = paged.pages.flatMap((p) => p.items);
    const wrong = items.find((p) => p?.status !== status);
    if (wrong) throw new Mismatch(`status=${status} listed ${wrong.id} whose status is ${JSON.stringify(wrong.status)}`, { status }, { id: wrong.id, status: wrong.status });
    const listed = new Set(items.map((p) => p.id));
    const missing = b.payments.filter((p) => p.status === status && !listed.has(p.id));
    if (missing.length) {
      throw new Mismatch(`status=${status}: ${missing.length} of this run's ${status} Payments in the window not listed (first: ${missing[0]!.id})`,
        { listed: missing.map((p) => p.id) }, { ids: [...listed] });
    }
    expectTrue(paged.complete, `status=${status} over the window did not end within ${paged.pages.length} pages`);
  }, { concurrency: 1 });
  const countOf = (s: string) => b.payments.filter((p) => p.status === s).length;
  const counts = Object.fromEntries(['PENDING', 'PAID', 'CANCELLED', 'REVERSED'].map((s) => [s, countOf(s)]));
  t.note(`this run's window Payments by status: ${JSON.stringify(counts)}; each status filter listed only its status and all of this run's`);
  if (counts.REVERSED === 0) {
    t.notTried('list.param.status#filters', 'status=REVERSED: no Payment of this run is REVERSED (only the control API reaches it, and ' +
      'the profile has none): only "nothing of another status listed" was checked for it', ['control']);
  }
});

const OFFSETS = [0, 360, -330, 345, -720, 840, 60];

/** A batch Payment reached by `move`, alone in a range 1 ms either side of its created_at: listed, and nothing outside it. */
async function checkTightRange(t: RuleContext, b: Batch, { move, offsetMinutes }: TightRangeRow): Promise<void> {
  const p = b.payments.find((x) => x.move === move);
  if (!p) throw new Mismatch(`setup: the batch has no Payment moved by ${move}`, move, b.payments.map((x) => x.move));
  const query = { created_from: rfc3339(p.createdMs - 1, offsetMinutes), created_to: rfc3339(p.createdMs + 1, offsetMinutes) };
  const what = `created_from=${query.created_from}&created_to=${query.created_to}`;
  const items = (await pageThrough(t, query, 100, 3)).pages.flatMap((pg) => pg.items);
  expectTrue(items.some((x) => x?.id === p.id), `${what}: ${p.status} Payment ${p.id} created at ${p.createdAt} not listed`, p.id, items.map((x) => x?.id));
  const outside = items.find((x) => !(Date.parse(x?.created_at) >= p.createdMs - 1 && Date.parse(x?.created_at) <= p.createdMs + 1));
  if (outside) throw new Mismatch(`${what}: listed ${outside.id} created at ${outside.created_at}, outside the range`, query, { id: outside.id, created_at: outside.created_at });
}

ruleTest('LIST-FILTER-CREATED-RANGE', async (t) => {
  const b = await batchOf(t);
  // Every state the batch reaches, on every seed (a table): the drawn ranges below only add.
  await t.cases(TIGHT_RANGE_CASES, (row) => checkTightRange(t, b, row), { concurrency: 1 });
  const sorted = [...b.payments].sort((x, y) => x.createdMs - y.createdMs);
  const bounds = { from: new Set<string>(), to: new Set<string>() };
  const arb = fc.record({
    i: fc.nat({ max: sorted.length - 1 }),
    j: fc.nat({ max: sorted.length - 1 }),
    dFrom: fc.constantFrom(-1, 0, 1),
    dTo: fc.constantFrom(-1, 0, 1),
    offFrom: fc.constantFrom(...OFFSETS),
    offTo: fc.constantFrom(...OFFSETS),
    variant: fc.constantFrom('both', 'both', 'from', 'to'),
  });
  await t.property(arb, async (v) => {
    const lo = Math.min(v.i, v.j);
    const hi = Math.max(v.i, v.j);
    const fromMs = sorted[lo]!.createdMs + v.dFrom;
    const toMs = sorted[hi]!.createdMs + v.dTo;
    const useFrom = v.variant !== 'to';
    const useTo = v.variant !== 'from';
    const query: Record<string, string> = {};
    if (useFrom) query.created_from = rfc3339(fromMs, v.offFrom);
    if (useTo) query.created_to = rfc3339(toMs, v.offTo);
    const what = Object.entries(query).map(([k, x]) => `${k}=${x}`).join('&');
    // Only created_to reaches back over the whole shared history: look at two pages only.
    const maxPages = v.variant === 'to' ? 2 : v.variant === 'from' ? 5 : Math.ceil(b.count / 100) + 3;
    const paged = await pageThrough(t, query, 100, maxPages);
    const items = paged.pages.flatMap((p) => p.items);
    for (const p of items) {
      const ms = Date.parse(p?.created_at);
      if ((useFrom && !(ms >= fromMs)) || (useTo && !(ms <= toMs))) {
        throw new Mismatch(`${what}: listed ${p?.id} created at ${p?.created_at}, outside the range`, { created_from: query.created_from, created_to: query.created_to }, { id: p?.id, created_at: p?.created_at });
      }
    }
    const listed = new Set(items.map((p) => p.id));
    for (const p of sorted) {
      if (p.createdMs === fromMs && useFrom) bounds.from.add(listed.has(p.id) ? 'inclusive' : paged.complete ? 'exclusive' : 'unknown');
      if (p.createdMs === toMs && useTo) bounds.to.add(listed.has(p.id) ? 'inclusive' : paged.complete ? 'exclusive' : 'unknown');
    }
    // A Payment strictly inside the range must be listed, when the listing was followed to its end.
    if (v.variant === 'to' || !paged.complete) return;
    const inside = sorted.filter((p) => (!useFrom || p.createdMs > fromMs) && (!useTo || p.createdMs < toMs));
    const missing = inside.filter((p) => !listed.has(p.id));
    if (missing.length) {
      throw new Mismatch(`${what}: ${missing.length} Payment(s) of this run created strictly inside the range not listed (first: ${missing[0]!.id} created at ${missing[0]!.createdAt})`,
        { listed: missing.map((p) => p.id) }, { ids: [...listed] });
    }
  }, { runs: share(t.runs, 0.16) });
  t.observe('created_from_bound', [...bounds.from].join(' / ') || 'not hit');
  t.observe('created_to_bound', [...bounds.to].join(' / ') || 'not hit');
});
