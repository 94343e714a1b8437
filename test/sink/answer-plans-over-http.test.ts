/**
 * Signed deliveries sent with undici to a sink on port 0: each answer plan, attempt by attempt.
 */
import { createHash } from 'node:crypto';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSink } from '../../service/sink/index.ts';
import { deliver, paymentEvent, startTestSink, tempDir } from './helpers.ts';

const HOLD_MS = 1_000;
let sink: RunningSink;
const temp = tempDir();

beforeAll(async () => {
  sink = await startTestSink(temp.dir, { holdMs: HOLD_MS });
});
afterAll(async () => {
  await sink.close();
  temp.remove();
});

/** Sends the same signed event `attempts` times and returns the statuses answered. */
async function statuses(marker: string | undefined, attempts: number, path = '/hooks/test-all') {
  const event = paymentEvent({ marker });
  const answered: number[] = [];
  for (let i = 0; i < attempts; i++) answered.push((await deliver(sink, path, event.body)).status);
  return { answered, event };
}

describe('answer plans', () => {
  it.each([
    [undefined, 2, [200, 200]],
    ['fail:500x2', 4, [500, 500, 200, 200]],
    ['fail:503x1', 2, [503, 200]],
    ['fail:404x3', 4, [404, 404, 404, 200]],
    ['fail:400x1', 2, [400, 200]],
    ['ack:202', 2, [202, 202]],
    ['ack:204', 2, [204, 204]],
    ['not-a-marker', 1, [200]],
  ])('marker %j answers %i attempts with %j', async (marker, attempts, expected) => {
    const { answered, event } = await statuses(marker, attempts);
    expect(answered).toEqual(expected);
    const recorded = sink.deliveries({ eventId: event.eventId });
    expect(recorded.map((d) => d.attempt)).toEqual(expected.map((_, i) => i + 1));
    expect(recorded.map((d) => d.answer)).toEqual(expected.map((status) => ({ kind: 'status', status })));
    expect(recorded.every((d) => d.problem === null && d.signature?.valid === true)).toBe(true);
  });

  it('an unparsable marker is answered 200 and its plan_problem recorded', async () => {
    const { event } = await statuses('fail:500', 1);
    const [delivery] = sink.deliveries({ eventId: event.eventId });
    expect(delivery?.planProblem).toMatch(/unknown marker/);
    expect(delivery?.event?.sinkMarker).toBe('fail:500');
  });

  it('attempts are counted per endpoint: fail:500x1 fails the first attempt at each endpoint', async () => {
    const event = paymentEvent({ marker: 'fail:500x1', type: 'payment.paid' });
    const secretOf = { '/hooks/test-all': undefined, '/hooks/test-paid': 'whsec_test_paid_0123456789' } as const;
    const answered: number[] = [];
    for (const path of ['/hooks/test-all', '/hooks/test-paid', '/hooks/test-all', '/hooks/test-paid'] as const) {
      answered.push((await deliver(sink, path, event.body, { secret: secretOf[path] })).status);
    }
    expect(answered).toEqual([500, 500, 200, 200]);
  });

  it('a sink@<path> key plans that endpoint alone: one endpoint fails while another acknowledges, the rest follow `sink`', async () => {
    const event = paymentEvent({
      marker: 'ack:202',
      type: 'payment.paid',
      metadata: { 'sink@/hooks/test-all': 'fail:500x2', 'sink@/hooks/nowhere': 'fail:503x9' },
    });
    const paid = { secret: 'whsec_test_paid_0123456789' };
    const answered: number[] = [];
    const all = ['/hooks/test-all', {}];
    const order = [all, ['/hooks/test-paid', paid], all, all, ['/hooks/test-paid', paid]];
    for (const [path, o] of order as [string, { secret?: string }][]) {
      answered.push((await deliver(sink, path, event.body, o)).status);
    }
    // test-all by its own plan (fail twice, then 200); test-paid by the Payment's `sink` (ack:202).
    expect(answered).toEqual([500, 202, 500, 200, 202]);
    const recorded = sink.deliveries({ eventId: event.eventId });
    expect(recorded.map((d) => d.event?.sinkMarker)).toEqual(['fail:500x2', 'ack:202', 'fail:500x2', 'fail:500x2', 'ack:202']);
    expect(recorded.every((d) => d.planProblem === null)).toBe(true);
  });

  it('redirect:2 answers 302 twice, pointing at a recorded redirect target that the client did not follow', async () => {
    const event = paymentEvent({ marker: 'redirect:2' });
    const first = await deliver(sink, '/hooks/test-all', event.body);
    const second = await deliver(sink, '/hooks/test-all', event.body);
    const third = await deliver(sink, '/hooks/test-all', event.body);
    expect([first.status, second.status, third.status]).toEqual([302, 302, 200]);
    const location = first.headers.location as string;
    expect(location).toMatch(new RegExp(`^${sink.url}/_sink/redirect-target/[A-Za-z0-9_-]+$`));
    expect(second.headers.location).not.toBe(location);
    const tokens = sink.deliveries({ eventId: event.eventId }).map((d) => (d.answer.kind === 'redirect' ? d.answer.redirectToken : null));
    expect(tokens.filter(Boolean)).toHaveLength(2);
    expect(sink.redirectHits().filter((hit) => tokens.includes(hit.token))).toEqual([]);
  });

  it('a redirect target that is hit is recorded with the delivery it came from', async () => {
    const event = paymentEvent({ marker: 'redirect:1' });
    const first = await deliver(sink, '/hooks/test-all', event.body);
    const location = first.headers.location as string;
    const followed = await request(location, { method: 'POST', body: event.body, headers: { 'content-type': 'application/json' } });
    await followed.body.text();
    const [delivery] = sink.deliveries({ eventId: event.eventId });
    const hit = sink.redirectHits().find((h) => location.endsWith(h.token));
    expect(hit).toMatchObject({ method: 'POST', forSeq: delivery?.seq, endpoint: '/hooks/test-all', bodySize: event.body.length });
    // The body is not kept (anyone holding the Location could send one): its size and digest are.
    expect(hit?.body).toBe('');
    expect(hit?.bodySha256).toBe(createHash('sha256').update(event.body).digest('hex'));
  });

  it('a planned 3xx failure (fail:301x1) also carries a recorded Location', async () => {
    const event = paymentEvent({ marker: 'fail:301x1' });
    const first = await deliver(sink, '/hooks/test-all', event.body);
    expect(first.status).toBe(301);
    expect(first.headers.location).toMatch(/\/_sink\/redirect-target\//);
    expect((await deliver(sink, '/hooks/test-all', event.body)).status).toBe(200);
  });

  it('reset:1 destroys the connection without answering, then answers 200', async () => {
    const event = paymentEvent({ marker: 'reset:1' });
    await expect(deliver(sink, '/hooks/test-all', event.body)).rejects.toThrow();
    expect((await deliver(sink, '/hooks/test-all', event.body)).status).toBe(200);
    const recorded = sink.deliveries({ eventId: event.eventId });
    expect(recorded.map((d) => d.answer.kind)).toEqual(['reset', 'status']);
  });

  it('timeout:1 holds the answer for holdMs, then 200 if the client still waits; the next attempt is answered at once', async () => {
    const event = paymentEvent({ marker: 'timeout:1' });
    const started = performance.now();
    const held = await deliver(sink, '/hooks/test-all', event.body);
    const heldFor = performance.now() - started;
    expect(held.status).toBe(200);
    expect(heldFor).toBeGreaterThanOrEqual(HOLD_MS - 5);
    const again = performance.now();
    expect((await deliver(sink, '/hooks/test-all', event.body)).status).toBe(200);
    expect(performance.now() - again).toBeLessThan(HOLD_MS);
    const [first] = sink.deliveries({ eventId: event.eventId });
    expect(first?.answer).toEqual({ kind: 'timeout', holdMs: HOLD_MS });
    expect(first?.settled?.how).toBe('answered_after_hold');
  });

  it('timeout:1 records when a client that gave up closed the connection', async () => {
    const event = paymentEvent({ marker: 'timeout:1' });
    await expect(deliver(sink, '/hooks/test-all', event.body, { abortAfterMs: 150 })).rejects.toThrow();
    const [first] = sink.deliveries({ eventId: event.eventId });
    for (let i = 0; i < 40 && !first?.settled; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(first?.settled?.how).toBe('peer_closed');
    // Counted from the sink's arrival stamp, which a busy machine takes some time after the client's
    // 150 ms timer started (130 ms seen under load): the bound tells a close at the abort from one at 0.
    expect(first?.settled?.afterMs).toBeGreaterThanOrEqual(75);
    expect(first?.settled?.afterMs).toBeLessThan(HOLD_MS);
  });

  it('a rejected request (bad signature) is answered 400 and counts as no attempt: a forged copy cannot use up a planned failure', async () => {
    const event = paymentEvent({ marker: 'fail:500x1' });
    expect((await deliver(sink, '/hooks/test-all', event.body, { secret: 'whsec_wrong' })).status).toBe(400);
    expect((await deliver(sink, '/hooks/test-all', event.body, { signature: null })).status).toBe(400);
    expect((await deliver(sink, '/hooks/test-all', event.body)).status).toBe(500);
    expect((await deliver(sink, '/hooks/test-all', event.body)).status).toBe(200);
    expect(sink.deliveries({ eventId: event.eventId }).map((d) => [d.problem, d.attempt])).toEqual([
      ['bad_signature', 1],
      ['bad_signature', 1],
      [null, 1],
      [null, 2],
    ]);
  });
});
