/**
 * esid: Endpoints › listPayments query parameters — "starting_after | string | a Payment id;
 *       returns results immediately after it"; "status | PaymentStatus | filter; strict".
 *
 * A read after a state change (DESIGN oracle 14): a page of a filtered list is read, the Payment
 * its cursor names moves out of the filter (cancel, a helper), and the next page is asked for with
 * that cursor. The cursor still names a Payment the key can see, so it is answered 200 and the
 * filtered Payments after it follow; the filter chooses what is listed, never whether the cursor
 * may be named. Every case has its own three PENDING Payments and the created_at window around
 * them (the target is shared: other Payments in the window are paged over, never judged).
 */
import { ruleTest, type RuleContext } from '../../service/harness/worker/rule-test.ts';
import { expectStatus, expectTrue, Mismatch } from '../../service/harness/worker/expect.ts';
import { CURSOR_AFTER_CHANGE_CASES, type CursorChangeMove } from '../../service/generators/cases/listing.ts';
import { listPage, pageThrough, rfc3339, toMs } from './window.ts';
import { sleep } from '../../service/harness/worker/wait-clock.ts';

const OWN = 3;
const MAX_PAGES = 30;

async function ownWindow(t: RuleContext): Promise<{ ids: string[]; query: Record<string, string> }> {
  const ids: string[] = [];
  const instants: number[] = [];
  for (let i = 0; i < OWN; i++) {
    const body = { amount: `${20 + i}.00`, external_id: t.externalId(`cc${i}`), metadata: t.metadata({ suite: 'cursor' }) };
    const p = await t.createPayment(body);
    ids.push(p.id);
    instants.push(toMs(p.created_at, 'setup'));
  }
  await sleep(5); // the window closes once its last create has answered
  const query = { status: 'PENDING', created_from: rfc3339(Math.min(...instants) - 1), created_to: rfc3339(Math.max(...instants) + 1) };
  return { ids, query };
}

async function move(t: RuleContext, id: string, how: CursorChangeMove): Promise<void> {
  const res = how === 'cancel' ? await t.client.cancelPayment(t.keys.test, id)
    : how === 'succeed' ? await t.client.simulateSucceeded(t.keys.test, id)
      : await t.client.simulateCancelled(t.keys.test, id);
  expectStatus(res, 200, `setup: ${how} of a PENDING Payment`);
}

async function cursorAfterChange(t: RuleContext, how: CursorChangeMove): Promise<void> {
  const own = await ownWindow(t);
  const paged = await pageThrough(t, own.query, 1, MAX_PAGES);
  const order = paged.pages.flatMap((p) => p.ids);
  // The first page holding one of ours with another of ours after it: its cursor is the one sent back.
  const oursAfter = (id: string) => order.slice(order.indexOf(id) + 1).filter((x) => own.ids.includes(x));
  const at = paged.pages.findIndex((p) => own.ids.includes(p.ids[0]!) && oursAfter(p.ids[0]!).length > 0);
  if (at < 0) {
    const why = `setup: paging status=PENDING over the window with limit=1 did not list two of this case's Payments in ${MAX_PAGES} pages`;
    throw new Mismatch(why, own.ids, order);
  }
  const page = paged.pages[at]!;
  const cursor = page.ids[0]!;
  const after = oursAfter(cursor);
  await move(t, cursor, how);
  const what = `status=PENDING, starting_after=${cursor} (moved by ${how} since its page was read)`;
  const next = await listPage(t, { ...own.query, limit: 100, starting_after: cursor }, what);
  expectTrue(!next.ids.includes(cursor), `${what}: listed the cursor's Payment itself, now not PENDING`, 'not listed', next.ids);
  const missing = after.filter((id) => !next.ids.includes(id));
  if (missing.length) {
    throw new Mismatch(`${what}: the PENDING Payments after the cursor were not listed (first: ${missing[0]})`, after, next.ids);
  }
}

ruleTest('LIST-CURSOR-AFTER-CHANGE', async (t) => {
  await t.cases(CURSOR_AFTER_CHANGE_CASES, (how) => cursorAfterChange(t, how));
  t.note(`${CURSOR_AFTER_CHANGE_CASES.rows({ testKey: '' }).length} cursors sent back after their Payment left status=PENDING: ` +
    'each answered 200 with the PENDING Payments after it');
});
