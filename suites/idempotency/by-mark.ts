/**
 * Payments found by a mark in their metadata: how a rule counts the Payments one create left
 * behind when the body carries no external_id to look them up by. The list has no metadata
 * filter, so the created window from the create's own created_at is paged through (bounded);
 * a window too busy to page through is said, never taken as a count.
 */
import type { RuleContext } from '../../service/harness/worker/rule-test.ts';
import { expectStatus, expectTrue } from '../../service/harness/worker/expect.ts';

/** Pages of 100 read at most: past them the count is not known. */
const MAX_PAGES = 10;

export interface MarkedCount {
  /** The ids of the Payments carrying the mark, or null when the window could not be paged through. */
  readonly ids: string[] | null;
  readonly pages: number;
}

/** The Payments created since `createdFrom` whose metadata[`name`] is `value`. */
export async function paymentsMarked(t: RuleContext, key: string, createdFrom: string, name: string, value: string): Promise<MarkedCount> {
  const ids: string[] = [];
  let after: string | undefined;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const query = { created_from: createdFrom, limit: 100, ...(after === undefined ? {} : { starting_after: after }) };
    const res = await t.client.listPayments(key, query);
    expectStatus(res, 200, `list created_from=${createdFrom} (page ${page})`);
    const data: any[] = Array.isArray(res.json?.data) ? res.json.data : [];
    for (const p of data) if (p?.metadata?.[name] === value && typeof p.id === 'string') ids.push(p.id);
    if (res.json?.has_more !== true || data.length === 0) return { ids, pages: page };
    after = String(data[data.length - 1]?.id);
  }
  return { ids: null, pages: MAX_PAGES };
}

/** Exactly `id` carries the mark among the Payments created since its creation; a window too busy is noted. */
export async function expectOnlyMarked(
  t: RuleContext, key: string, created: { id: string; created_at: string }, mark: readonly [string, string], what: string,
): Promise<void> {
  const [name, value] = mark;
  const found = await paymentsMarked(t, key, created.created_at, name, value);
  if (found.ids === null) {
    const since = `more than ${MAX_PAGES * 100} Payments created since ${created.created_at}`;
    t.note(`${what}: ${since}; the count by metadata ${name} was not taken`);
    return;
  }
  expectTrue(found.ids.length === 1 && found.ids[0] === created.id,
    `${what}: ${found.ids.length} Payment(s) carry metadata ${name}=${value} [${found.ids.join(', ')}], expected exactly ${created.id}`,
    [created.id], found.ids);
}
