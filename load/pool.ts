/**
 * Before the load: the pool of payments the read scenario reads, created through the suite's
 * client (marked like every object of the run). Bounded: POOL_SIZE creates, POOL_CONCURRENCY
 * at a time.
 */
import { TransportError, type Client } from '../core/client.ts';
import { mapLimit } from '../core/concurrency.ts';
import { HarnessError } from '../core/errors.ts';
import { validate } from '../catalogue/schemas/index.ts';
import type { Observations, PaymentRef } from './observe.ts';
import { createRequest } from './scenarios.ts';

export const POOL_SIZE = 50;
const POOL_CONCURRENCY = 8;

export type PoolOutcome = { ok: true; pool: PaymentRef[] } | { ok: false; reason: string };

export async function createPool(client: Client, key: string, runId: string, obs: Observations, size = POOL_SIZE): Promise<PoolOutcome> {
  let failure: string | null = null;
  const made = await mapLimit(Array.from({ length: size }, (_, i) => i), POOL_CONCURRENCY, async (i): Promise<PaymentRef | null> => {
    const req = createRequest(runId, i, 'pool');
    let res;
    try {
      res = await client.request({
        method: 'POST',
        path: '/v1/payments',
        key,
        raw: req.body,
        headers: { 'content-type': 'application/json' },
        idempotencyKey: req.idempotencyKey,
      });
    } catch (e) {
      if (e instanceof TransportError) throw new HarnessError(e.code, `creating the read pool: ${e.message}`);
      throw e;
    }
    if (res.status >= 500) obs.fiveXX.setup += 1;
    const v = res.status === 201 ? validate('Payment', res.json) : null;
    if (res.status !== 201 || !v?.valid || typeof res.json?.id !== 'string') {
      failure ??= `POST /v1/payments for the read pool answered ${res.status}${res.json?.error?.code ? ` ${res.json.error.code}` : ''}${v && !v.valid ? ` (not a Payment: ${v.errors[0]})` : ''}`;
      return null;
    }
    return { id: res.json.id, amount: req.amount, externalId: req.externalId };
  }, { stop: () => failure !== null });
  const pool = made.filter((p): p is PaymentRef => p !== null);
  return failure === null ? { ok: true, pool } : { ok: false, reason: failure };
}
