/**
 * Helpers of the listing suites: a batch of marked Payments created once per file, the
 * created_at window that isolates them on a shared target, and a bounded pager.
 *
 * The target is shared and never empty (DESIGN, oracle principle 6): a window
 * [first created_at − 1 ms, last created_at + 1 ms] holds this run's batch and whatever
 * other runs created meanwhile. Once the last create has answered, nothing newer can
 * enter it, so its content is stable (no status filter is involved) and paging over it
 * is bounded. Checks speak about this run's Payments (each visited exactly once) and
 * about repeats, never about "only ours".
 */
import { sleep } from '../../service/harness/worker/wait-clock.ts';
import type { ApiResponse } from '../../core/client.ts';
import { mapLimit } from '../../core/concurrency.ts';
import type { RuleContext } from '../../service/harness/worker/rule-test.ts';
import { countCheck, expectStatus, expectTrue, Mismatch } from '../../service/harness/worker/expect.ts';
import { runShared } from '../../service/harness/worker/run-scoped.ts';
import type { BatchMove } from '../../service/generators/cases/listing.ts';
import { controlRequest } from '../_shared/stories.ts';

export interface BatchPayment {
  id: string;
  externalId: string;
  createdAt: string;
  createdMs: number;
  status: string;
  /** How it reached its status: created (none) or moved by an action after every create of the batch. */
  move: BatchMove;
}

export interface Batch {
  payments: BatchPayment[];
  /** created_from / created_to isolating the batch (RFC 3339, UTC, milliseconds). */
  window: { created_from: string; created_to: string };
  fromMs: number;
  toMs: number;
  /** The window paged once with limit 100 and starting_after = last id: what it holds. */
  baseline: Paged;
  /** Distinct Payments in the window (this run's and others'). */
  count: number;
}

export interface Page {
  startingAfter: string | null;
  ids: string[];
  items: any[];
  hasMore: boolean;
  nextCursor: unknown;
  res: ApiResponse;
}

export interface Paged {
  pages: Page[];
  /** The last page said has_more false within the bound. */
  complete: boolean;
}

export const BATCH_SIZE = 24;

/** Parses an RFC 3339 timestamp to epoch milliseconds (sub-millisecond digits truncated). */
export function toMs(value: unknown, what: string): number {
  const ms = typeof value === 'string' ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) throw new Mismatch(`${what}: created_at ${JSON.stringify(value)} is not a date-time`, 'date-time', value);
  return ms;
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** `ms` written as RFC 3339 with milliseconds in the given UTC offset (minutes); 0 → "Z". */
export function rfc3339(ms: number, offsetMinutes = 0): string {
  if (offsetMinutes === 0) return new Date(ms).toISOString();
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, -1);
  const a = Math.abs(offsetMinutes);
  return `${local}${offsetMinutes < 0 ? '-' : '+'}${pad(Math.floor(a / 60))}:${pad(a % 60)}`;
}

/** One page of listPayments, 200 asserted and the body's shape checked enough to page on. */
export async function listPage(t: RuleContext, query: Record<string, string | number | undefined>, what: string, key = t.keys.test): Promise<Page> {
  const res = await t.client.listPayments(key, query);
  expectStatus(res, 200, what);
  const body = res.json;
  expectTrue(body !== null && typeof body === 'object' && Array.isArray(body.data) && typeof body.has_more === 'boolean',
    `${what}: the answer is not a PaymentList (data array, has_more boolean)`, 'PaymentList', body ?? res.text.slice(0, 200));
  const items = body.data as any[];
  return {
    startingAfter: typeof query.starting_after === 'string' ? query.starting_after : null,
    ids: items.map((p) => p?.id),
    items,
    hasMore: body.has_more,
    nextCursor: body.next_cursor,
    res,
  };
}

/**
 * Pages through `query` with `limit`, each next page asked with starting_after = the last id
 * of the page (the spec's documented mechanism) or, in 'next_cursor' mode, with the page's
 * next_cursor. Stops when has_more is false, a page is empty, or after `maxPages` pages.
 */
export async function pageThrough(
  t: RuleContext,
  query: Record<string, string | number | undefined>,
  limit: number,
  maxPages: number,
  mode: 'last-id' | 'next_cursor' = 'last-id',
  key = t.keys.test,
): Promise<Paged> {
  const pages: Page[] = [];
  let after: string | undefined;
  for (let n = 0; n < maxPages; n++) {
    const page = await listPage(t, { ...query, limit, starting_after: after }, `page ${n + 1} (limit=${limit}${after ? `, starting_after=${after}` : ''})`, key);
    pages.push(page);
    if (!page.hasMore || page.ids.length === 0) return { pages, complete: !page.hasMore };
    const next = mode === 'last-id' ? page.ids[page.ids.length - 1] : page.nextCursor;
    if (typeof next !== 'string' || next === '') return { pages, complete: false };
    after = next;
  }
  return { pages, complete: false };
}

/** Every id of this run's batch visited exactly once, and no id twice. */
export function expectEachOnce(paged: Paged, batch: Batch, what: string): void {
  countCheck();
  const seen = new Map<string, number>();
  paged.pages.forEach((p, i) => p.ids.forEach((id) => {
    if (seen.has(id)) {
      throw new Mismatch(`${what}: ${id} listed twice (pages ${seen.get(id)! + 1} and ${i + 1})`, 'each Payment once',
        { id, pages: paged.pages.map((pg) => ({ starting_after: pg.startingAfter, ids: pg.ids, has_more: pg.hasMore })) });
    }
    seen.set(id, i);
  }));
  const missing = batch.payments.filter((p) => !seen.has(p.id)).map((p) => p.id);
  if (missing.length) {
    throw new Mismatch(`${what}: ${missing.length} of this run's ${batch.payments.length} Payments in the window never listed (first: ${missing[0]})`,
      { listed: batch.payments.map((p) => p.id) }, { missing, pages: paged.pages.map((pg) => ({ starting_after: pg.startingAfter, ids: pg.ids, has_more: pg.hasMore })) });
  }
}

/** One batch per worker and run (files of a worker share this module; a new run, or a failed making, starts afresh). */
const batch = runShared<Batch>();

const MOVED: Record<Exclude<BatchMove, 'none'>, string> = {
  succeed: 'PAID', cancel: 'CANCELLED', 'helper-cancel': 'CANCELLED', reverse: 'REVERSED',
};

/** One batch Payment moved out of PENDING; its status after the move. */
async function moveBatchPayment(t: RuleContext, id: string, how: Exclude<BatchMove, 'none'>): Promise<string> {
  if (how === 'reverse') {
    expectStatus(await t.client.simulateSucceeded(t.keys.test, id), 200, 'setup: succeed of a batch Payment to reverse');
  }
  const res = how === 'succeed' ? await t.client.simulateSucceeded(t.keys.test, id)
    : how === 'cancel' ? await t.client.cancelPayment(t.keys.test, id)
      : how === 'reverse' ? await controlRequest(t, 'POST', `/payments/${encodeURIComponent(id)}/reverse`)
        : await t.client.simulateCancelled(t.keys.test, id);
  expectStatus(res, 200, `setup: ${how} of a batch Payment`);
  return MOVED[how];
}

/**
 * The file's batch: BATCH_SIZE marked Test Payments (created four at a time, so some share a
 * created_at instant), three made PAID by the helper, two CANCELLED by cancelPayment and one by
 * the cancel helper, and one REVERSED through the control API when the profile has one; then its
 * window, paged once with limit 100. Made on first use, reused by every test of the file.
 */
export function batchOf(t: RuleContext): Promise<Batch> {
  return batch.get(() => makeBatch(t));
}

async function makeBatch(t: RuleContext): Promise<Batch> {
  const created = await mapLimit(Array.from({ length: BATCH_SIZE }, (_, i) => i), 4, async (i) => {
    const p = await t.createPayment({ amount: `${10 + i}.00`, external_id: t.externalId(`ls${i}`), metadata: t.metadata({ suite: 'listing' }) });
    return { id: p.id as string, externalId: p.external_id as string, createdAt: p.created_at as string, createdMs: toMs(p.created_at, 'setup'), status: 'PENDING', move: 'none' as BatchMove };
  });
  const moves: Array<[number, Exclude<BatchMove, 'none'>]> = [
    [0, 'succeed'], [7, 'succeed'], [15, 'succeed'], [3, 'cancel'], [11, 'cancel'], [20, 'helper-cancel'],
  ];
  // A state only the control API reaches (PAID -> REVERSED), so the status filter is judged on it too.
  if (t.profile.control) moves.push([23, 'reverse']);
  await Promise.all(moves.map(async ([i, how]) => {
    const p = created[i]!;
    p.status = await moveBatchPayment(t, p.id, how);
    p.move = how;
  }));
  const fromMs = Math.min(...created.map((p) => p.createdMs)) - 1;
  const toMsValue = Math.max(...created.map((p) => p.createdMs)) + 1;
  // Let the window close: whatever the target creates from now on is newer than created_to.
  await sleep(25);
  const window = { created_from: rfc3339(fromMs), created_to: rfc3339(toMsValue) };
  const baseline = await pageThrough(t, window, 100, 40);
  const count = new Set(baseline.pages.flatMap((p) => p.ids)).size;
  return { payments: created, window, fromMs, toMs: toMsValue, baseline, count };
}
