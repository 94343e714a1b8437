/**
 * The request each operation sends, built from the scenario: what was sent is kept (Sent) so
 * that the answer can be checked against it. Creates carry the run's key space: the run id and
 * the generator's tag (shard and worker) prefix every external_id and Idempotency-Key, so
 * shards and workers never share a key.
 */
import type { Observations, PaymentRef, Sent } from './observe.ts';
import { createRequest, listPath, paymentPath, pickOpFrom, REPLAY_SHARE, type Op } from './scenarios.ts';

export interface OutgoingRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  sent: Sent;
}

export interface RequestFactoryInput {
  baseUrl: string;
  key: string;
  runId: string;
  tag: string;
  mix: Record<Op, number>;
  pool: readonly PaymentRef[];
  obs: Observations;
}

export type RequestFactory = () => OutgoingRequest;

export function requestFactory(x: RequestFactoryInput): RequestFactory {
  const prefix = new URL(x.baseUrl).pathname.replace(/\/+$/, '');
  const auth = `Bearer ${x.key}`;
  const getHeaders = { authorization: auth, accept: 'application/json' };
  const list = listPath(prefix);
  const createPath = `${prefix}/v1/payments`;
  const readPaths = x.pool.map((ref) => paymentPath(prefix, ref.id)); // built once, not per request
  let seq = 0;
  return () => {
    const op = pickOpFrom(x.mix, Math.random());
    const sent: Sent = { op };
    if (op === 'create') {
      const headers: Record<string, string> = { authorization: auth, accept: 'application/json', 'content-type': 'application/json' };
      const replay = x.obs.pickReplay(Math.random(), REPLAY_SHARE);
      if (replay) {
        sent.replayOf = replay;
        headers['idempotency-key'] = replay.key;
        return { method: 'POST', path: createPath, headers, body: replay.body, sent };
      }
      const c = createRequest(x.runId, ++seq, x.tag);
      sent.create = c;
      if (c.idempotencyKey) headers['idempotency-key'] = c.idempotencyKey;
      return { method: 'POST', path: createPath, headers, body: c.body, sent };
    }
    if (op === 'read' && x.pool.length) {
      const i = Math.floor(Math.random() * x.pool.length);
      sent.read = x.pool[i]!;
      return { method: 'GET', path: readPaths[i]!, headers: getHeaders, sent };
    }
    sent.op = 'list';
    return { method: 'GET', path: list, headers: getHeaders, sent };
  };
}
