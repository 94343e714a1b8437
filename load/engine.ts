/**
 * Drives autocannon over the scenario's mix. One request spec per connection whose
 * setupRequest picks the operation of each request (and writes what it sent into the
 * connection's context), whose onResponse hands the answer to the Observations. With
 * pipelining 1 the context seen by onResponse is the one of the request answered, and
 * autocannon emits the instance's `response` event (with the response time) synchronously
 * right after onResponse: that is how each latency is filed under its operation.
 */
import autocannon from 'autocannon';
import type { Observations, PaymentRef, Sent } from './observe.ts';
import { listPath, paymentPath, pickOp, createRequest, REPLAY_SHARE, type Op, type ScenarioName } from './scenarios.ts';
import type { Tallies } from './stats.ts';

export interface EngineInput {
  baseUrl: string;
  key: string;
  runId: string;
  scenario: ScenarioName;
  connections: number;
  durationS: number;
  rate?: number;
  maxRequests: number;
  timeoutS: number;
  pool: readonly PaymentRef[];
  obs: Observations;
  tallies: Tallies;
  /** Called once per second with the responses of that second (progress). */
  onTick?: (responses: number) => void;
}

export interface EngineOutput {
  raw: autocannon.Result;
  /** Effective connections (autocannon lowers them to --rate when the rate is smaller). */
  connections: number;
  /** Observation code that threw (never expected; reported rather than crashing the run). */
  internalErrors: string[];
}

export async function runEngine(input: EngineInput): Promise<EngineOutput> {
  const prefix = new URL(input.baseUrl).pathname.replace(/\/+$/, '');
  const auth = `Bearer ${input.key}`;
  const getHeaders = { authorization: auth, accept: 'application/json' };
  const internalErrors: string[] = [];
  let seq = 0;
  let answered: Op | null = null;

  const setupRequest = (req: autocannon.RequestSpec, context: autocannon.Context): autocannon.RequestSpec => {
    const op = pickOp(input.scenario, Math.random()); // reads only in scenarios that made a pool
    const sent: Sent = { op };
    context.sent = sent;
    if (op === 'create') {
      const replay = input.obs.pickReplay(Math.random(), REPLAY_SHARE);
      const headers: Record<string, string> = { authorization: auth, accept: 'application/json', 'content-type': 'application/json' };
      let body: string;
      if (replay) {
        sent.replayOf = replay;
        headers['idempotency-key'] = replay.key;
        body = replay.body;
      } else {
        const c = createRequest(input.runId, ++seq);
        sent.create = c;
        if (c.idempotencyKey) headers['idempotency-key'] = c.idempotencyKey;
        body = c.body;
      }
      return { ...req, method: 'POST', path: `${prefix}/v1/payments`, headers, body };
    }
    if (op === 'read') {
      const ref = input.pool[Math.floor(Math.random() * input.pool.length)]!;
      sent.read = ref;
      return { ...req, method: 'GET', path: paymentPath(prefix, ref.id), headers: getHeaders, body: undefined };
    }
    return { ...req, method: 'GET', path: listPath(prefix), headers: getHeaders, body: undefined };
  };

  const onResponse = (status: number, body: string, context: autocannon.Context): void => {
    const sent = context.sent as Sent | undefined;
    answered = sent?.op ?? null;
    if (!sent) return;
    try {
      input.obs.observe(sent, status, body);
    } catch (e) {
      if (internalErrors.length < 5) internalErrors.push((e as Error).message);
    }
  };

  const connections = input.rate ? Math.min(input.connections, input.rate) : input.connections;
  const instance = autocannon({
    url: input.baseUrl,
    connections,
    duration: input.durationS,
    maxOverallRequests: input.maxRequests,
    ...(input.rate ? { overallRate: input.rate } : {}),
    timeout: input.timeoutS,
    pipelining: 1,
    requests: [{ setupRequest, onResponse }],
  });
  let second = 0;
  instance.on('response', (_client: unknown, status: number, _bytes: number, responseTimeMs: number) => {
    second += 1;
    if (answered) input.tallies[answered].record(status, responseTimeMs);
    answered = null;
  });
  instance.on('tick', () => {
    input.onTick?.(second);
    second = 0;
  });
  const raw = await instance;
  return { raw, connections, internalErrors };
}
