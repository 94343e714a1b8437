/**
 * After the load, through the suite's client, every step bounded:
 * - re-read a sample of the payments the run created (evenly spread over the run): each must
 *   exist (200), be a Payment with that id and the amount sent;
 * - for a sample of the replayed creates, list by external_id: exactly one payment (the
 *   replays created no duplicate);
 * - clean up (shared targets only): cancel the run's PENDING payments, within a time budget.
 */
import { TransportError, type Client } from '../core/client.ts';
import { mapLimit } from '../core/concurrency.ts';
import { decimalEquals } from '../core/decimal.ts';
import { validate } from '../catalogue/schemas/index.ts';
import { Examples, type Observations, type PaymentRef } from './observe.ts';

export const REREAD_SAMPLE = 50;
export const DUPLICATE_SAMPLE = 20;
export const CLEANUP_BUDGET_MS = 30_000;
const CONCURRENCY = 8;

/** Runs `fn` over the items, `limit` at a time, none started past `deadline`; how many ran. */
async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>, deadline = Infinity): Promise<number> {
  const ran = await mapLimit(items, limit, fn, { stop: () => Date.now() >= deadline });
  return ran.length;
}

/** n items evenly spread over the list (all of them when there are fewer). */
export function spread<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]!);
}

export interface RereadOutcome {
  checked: number;
  bad: Examples;
}

export async function rereadSample(client: Client, key: string, created: readonly PaymentRef[], obs: Observations): Promise<RereadOutcome> {
  const bad = new Examples();
  const sample = spread(created, REREAD_SAMPLE);
  const checked = await eachLimited(sample, CONCURRENCY, async (ref) => {
    try {
      const res = await client.getPayment(key, ref.id);
      if (res.status >= 500) obs.fiveXX.after += 1;
      if (res.status !== 200) return bad.add(`GET ${ref.id} after the run: ` +
        `answered ${res.status}${res.json?.error?.code ? ` ${res.json.error.code}` : ''}`);
      const v = validate('Payment', res.json);
      if (!v.valid) return bad.add(`GET ${ref.id} after the run: not a Payment (${v.errors.slice(0, 2).join('; ')})`);
      if (res.json.id !== ref.id) return bad.add(`GET ${ref.id} after the run: answered payment ${JSON.stringify(res.json.id)}`);
      if (!decimalEquals(res.json.amount, ref.amount)) {
        bad.add(`GET ${ref.id} after the run: amount ${JSON.stringify(res.json.amount)}, created with "${ref.amount}"`);
      }
    } catch (e) {
      if (!(e instanceof TransportError)) throw e;
      bad.add(`GET ${ref.id} after the run: ${e.message}`);
    }
  });
  return { checked, bad };
}

export async function replayDuplicates(
  client: Client,
  key: string,
  externalIds: Iterable<string>,
  obs: Observations,
): Promise<RereadOutcome> {
  const bad = new Examples();
  const sample = spread([...externalIds], DUPLICATE_SAMPLE);
  const checked = await eachLimited(sample, CONCURRENCY, async (externalId) => {
    try {
      const res = await client.listPayments(key, { external_id: externalId, limit: 10 });
      if (res.status >= 500) obs.fiveXX.after += 1;
      if (res.status !== 200 || !Array.isArray(res.json?.data)) return bad.add(`list external_id=${externalId}: answered ${res.status}`);
      const same = (res.json.data as { external_id?: unknown }[]).filter((p) => p?.external_id === externalId).length;
      if (same !== 1) bad.add(`list external_id=${externalId}: ${same} payments after replays, expected exactly 1`);
    } catch (e) {
      if (!(e instanceof TransportError)) throw e;
      bad.add(`list external_id=${externalId}: ${e.message}`);
    }
  });
  return { checked, bad };
}

export interface CleanupOutcome {
  total: number;
  attempted: number;
  cancelled: number;
  notPending: number;
  failed: number;
  budgetMs: number;
}

export async function cleanup(client: Client, key: string, ids: readonly string[], budgetMs = CLEANUP_BUDGET_MS): Promise<CleanupOutcome> {
  const out: CleanupOutcome = { total: ids.length, attempted: 0, cancelled: 0, notPending: 0, failed: 0, budgetMs };
  const deadline = Date.now() + budgetMs;
  await eachLimited(
    ids,
    CONCURRENCY,
    async (id) => {
      out.attempted += 1;
      try {
        const res = await client.cancelPayment(key, id);
        if (res.status === 200) out.cancelled += 1;
        else if (res.status === 409) out.notPending += 1;
        else out.failed += 1;
      } catch {
        out.failed += 1;
      }
    },
    deadline,
  );
  return out;
}
