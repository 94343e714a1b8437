/**
 * Shared helpers for suites: the operations table as requests a suite can
 * send with any credentials, against a real Payment id when one is needed.
 */
import fc from 'fast-check';
import { OPERATIONS, expandPath, type Operation } from '../schemas/index.ts';
import type { ApiResponse, RequestOptions } from '../core/client.ts';
import type { RuleContext } from '../runner/rule-test.ts';

export { OPERATIONS, type Operation };

/** A request to `op` with the given credentials; create gets a valid body. */
export function requestFor(op: Operation, id: string, auth: Pick<RequestOptions, 'key' | 'authorization'>, t: RuleContext): RequestOptions {
  const path = '/v1' + expandPath(op.path, { id: encodeURIComponent(id) });
  const base: RequestOptions = { method: op.method, path, ...auth };
  if (op.operationId === 'createPayment') return { ...base, json: { amount: '10.00', external_id: t.externalId('op'), metadata: t.metadata() } };
  if (op.operationId === 'listPayments') return { ...base, path: `${path}?limit=1` };
  return base;
}

export function sendFor(op: Operation, id: string, auth: Pick<RequestOptions, 'key' | 'authorization'>, t: RuleContext): Promise<ApiResponse> {
  return t.client.request(requestFor(op, id, auth, t));
}

export const anyOperation: fc.Arbitrary<Operation> = fc.constantFrom(...OPERATIONS);
