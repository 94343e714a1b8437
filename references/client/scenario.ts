/**
 * The example merchant's test command for `hps-conformance client --run`:
 *
 *   hps-conformance client --run "node --import tsx references/client/scenario.ts"
 *
 * Reads HPS_BASE_URL and HPS_API_KEY (set by the client command), creates 10 Payments (the last
 * two are two orders with the same body, each under its own Idempotency-Key), lists the Payments,
 * reads the first back, lists again, reads the others back, lists a third time and cancels all but
 * the last two. HPS_CLIENT_FAULT=name plants a client fault (faults.ts).
 * Operations that finally fail are reported and the run goes on (the chaos server fails some on purpose).
 */
import { HpsClient } from './client.ts';
import { clientFaultsFrom } from './faults.ts';

const CREATES = 10;

async function main(): Promise<number> {
  const baseUrl = process.env.HPS_BASE_URL;
  const apiKey = process.env.HPS_API_KEY;
  if (!baseUrl || !apiKey) {
    console.error('scenario: HPS_BASE_URL and HPS_API_KEY must be set');
    return 2;
  }
  const client = new HpsClient(baseUrl.replace(/\/+$/, ''), apiKey, clientFaultsFrom(process.env.HPS_CLIENT_FAULT));
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
  for (let i = 0; i < CREATES; i++) {
    const p = await attempt(`create ${i}`, () => client.createPayment(orderBody(run, i)));
    if (p?.id) ids.push(p.id);
  }
  // Two flows' lists with a read between them, before the other reads: they meet read failures 1 and 3
  // (at most one of them the 500 the guidance leaves out); a last list after every other read.
  await attempt('list 1', () => client.listPayments(5));
  for (const id of ids.slice(0, 1)) await attempt(`get ${id}`, () => client.getPayment(id));
  await attempt('list 2', () => client.listPayments(5));
  for (const id of ids.slice(1)) await attempt(`get ${id}`, () => client.getPayment(id));
  await attempt('list 3', () => client.listPayments(5));
  for (const id of ids.slice(0, Math.max(0, ids.length - 2))) await attempt(`cancel ${id}`, () => client.cancelPayment(id));
  console.log(`scenario: ${ids.length} created, ${failed} operation(s) finally failed`);
  return 0;
}

/**
 * Odd orders carry an external_id (the service then refuses a duplicate by itself); even ones rely
 * on the Idempotency-Key alone. The last two are the same order twice (same amount, same text):
 * two creates under two keys, which must never be judged a retry or a duplicate.
 */
function orderBody(run: string, i: number): Record<string, unknown> {
  if (i >= CREATES - 2) return { amount: '250.00', currency: 'BDT', description: `Order ${run} (same twice)` };
  const body: Record<string, unknown> = { amount: `${100 + i}.00`, currency: 'BDT', description: `Order ${run}-${i}` };
  if (i % 2 === 1) body.external_id = `ex_${run}_${i}`;
  return body;
}

process.exitCode = await main();
