/**
 * Finding this run's Payments again, for the idempotency, orders,
 * isolation and live suites: the
 * target is shared and never empty (DESIGN, oracle principle 6), so a Payment is found by
 * the external_id this run gave it, never by position in a list.
 */
import type { RuleContext } from '../../service/harness/worker/rule-test.ts';
import { expectStatus, expectTrue } from '../../service/harness/worker/expect.ts';

/** The Payments the key lists under the external_id filter (200 asserted), only those carrying it. */
export async function listByExternalId(t: RuleContext, key: string, externalId: string): Promise<any[]> {
  const res = await t.client.listPayments(key, { external_id: externalId, limit: 100 });
  expectStatus(res, 200, `list external_id=${externalId}`);
  const data: any[] = Array.isArray(res.json?.data) ? res.json.data : [];
  return data.filter((p) => p?.external_id === externalId);
}

/** A rejected create left nothing behind: no Payment carries its external_id. */
export async function expectNothingCreated(t: RuleContext, key: string, externalId: string, what: string): Promise<void> {
  const found = await listByExternalId(t, key, externalId);
  expectTrue(found.length === 0, `${what}: a rejected create left ${found.length} Payment(s) with external_id ${externalId} (${found.map((p) => p.id).join(', ')})`, [], found.map((p) => p.id));
}

/** Exactly one Payment carries the external_id, and it is `id`. */
export async function expectExactlyOne(t: RuleContext, key: string, externalId: string, id: string, what: string): Promise<void> {
  const found = await listByExternalId(t, key, externalId);
  const ids = found.map((p) => p.id);
  expectTrue(found.length === 1 && ids[0] === id, `${what}: external_id ${externalId} lists ${found.length} Payment(s) [${ids.join(', ')}], expected exactly ${id}`, [id], ids);
}

/** Cancels the Payments that are still PENDING, best effort (Live ones too: the harness only cleans Test). */
export async function cancelIfPending(t: RuleContext, key: string, ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    try {
      const g = await t.client.getPayment(key, id);
      if (g.status === 200 && g.json?.status === 'PENDING') await t.client.cancelPayment(key, id);
    } catch {
      /* best effort: the test's own verdict is already decided */
    }
  }
}
