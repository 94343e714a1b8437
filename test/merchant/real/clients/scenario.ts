/**
 * The merchant's test command every real-library client runs (`client --run "node --import tsx
 * test/merchant/real/clients/<lib>.ts"`): creates until 10 Payments exist (at most 20 tries; the
 * first two are the same order twice, each under its own Idempotency-Key), a read of each, two
 * list reads, a cancel of all but two: a client that loses creates still meets the cancel failures. The
 * library adapter does the HTTP; an operation that finally fails is logged and the run goes on.
 */
import { randomUUID } from 'node:crypto';

export interface Api {
  create(body: Record<string, unknown>, idempotencyKey: string): Promise<{ id?: string }>;
  get(id: string): Promise<unknown>;
  list(limit: number): Promise<unknown>;
  cancel(id: string): Promise<unknown>;
}

const CREATES = 10;

export async function runScenario(make: (baseUrl: string, apiKey: string) => Api): Promise<void> {
  const baseUrl = (process.env.HPS_BASE_URL ?? '').replace(/\/+$/, '');
  const apiKey = process.env.HPS_API_KEY ?? '';
  if (!baseUrl || !apiKey) throw new Error('HPS_BASE_URL and HPS_API_KEY must be set');
  const api = make(baseUrl, apiKey);
  const run = `${Date.now().toString(36)}${process.pid}`;
  let failed = 0;
  const attempt = async <T>(what: string, op: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await op();
    } catch (e) {
      failed++;
      console.log(`${what}: ${(e as Error).message}`);
      return undefined;
    }
  };
  const ids: string[] = [];
  for (let i = 0; ids.length < CREATES && i < 2 * CREATES; i++) {
    // One key per logical create, made here, before any attempt: the library's retries reuse the request.
    const p = await attempt(`create ${i}`, () => api.create(order(run, i), randomUUID()));
    if (p?.id) ids.push(p.id);
  }
  for (const id of ids) await attempt(`get ${id}`, () => api.get(id));
  for (const n of [1, 2]) await attempt(`list ${n}`, () => api.list(5));
  for (const id of ids.slice(0, Math.max(0, ids.length - 2))) await attempt(`cancel ${id}`, () => api.cancel(id));
  console.log(`scenario: ${ids.length} created, ${failed} operation(s) finally failed`);
}

function order(run: string, i: number): Record<string, unknown> {
  if (i < 2) return { amount: '250.00', currency: 'BDT', description: `Order ${run} (same twice)` };
  return { amount: `${100 + i}.00`, currency: 'BDT', description: `Order ${run}-${i}` };
}
