/**
 * What a receiver refuses (spec "Signature" 3: answered 400, not processed), and what the sink records
 * about deliveries a target should not have made.
 */
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signPayload, type RunningSink } from '../../service/sink/index.ts';
import { deliver, paymentEvent, SECRETS, startTestSink, tempDir } from './helpers.ts';

let sink: RunningSink;
const temp = tempDir();

beforeAll(async () => {
  sink = await startTestSink(temp.dir, { maxBodyBytes: 4096 });
});
afterAll(async () => {
  await sink.close();
  temp.remove();
});

const last = () => sink.deliveries().at(-1);

describe('rejected requests are answered 400 (413 when oversize) and logged with the problem', () => {
  it.each([
    ['unsigned', { signature: null }, 'missing_header'],
    ['signed with a wrong secret', { secret: 'whsec_wrong' }, 'no_matching_signature'],
    ['a malformed signature header', { signature: 't=,v1=abc' }, 'malformed'],
    ['signed 10 minutes ago', { t: Math.floor(Date.now() / 1000) - 600 }, 'timestamp_too_old'],
  ] as const)('%s', async (_title, options, signatureProblem) => {
    const event = paymentEvent();
    const answer = await deliver(sink, '/hooks/test-all', event.body, options);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toMatchObject({ error: 'bad_signature' });
    expect(last()).toMatchObject({
      problem: 'bad_signature',
      signature: { valid: false, problem: signatureProblem },
      answer: { kind: 'status', status: 400 },
    });
    expect(last()?.event?.id).toBe(event.eventId);
  });

  it('signed with the secret of another endpoint: the endpoint whose secret it is gets named', async () => {
    await deliver(sink, '/hooks/test-all', paymentEvent().body, { secret: SECRETS.liveAll });
    expect(last()).toMatchObject({ problem: 'bad_signature', signedWithSecretOf: '/hooks/live-all' });
  });

  it('a signed body that is not JSON', async () => {
    const junk = Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x22]);
    expect((await deliver(sink, '/hooks/test-all', junk)).status).toBe(400);
    expect(last()).toMatchObject({ problem: 'body_not_json', signature: { valid: true }, event: null, attempt: null });
    expect(Buffer.from(last()?.body ?? '', 'base64').equals(junk)).toBe(true);
  });

  it.each([['[1,2]'], ['{"type":"payment.paid"}'], ['{"id":7}'], ['null']])('a signed JSON body that is not an event: %s', async (text) => {
    expect((await deliver(sink, '/hooks/test-all', Buffer.from(text))).status).toBe(400);
    expect(last()?.problem).toBe('body_not_event');
  });

  it('an unknown path', async () => {
    const event = paymentEvent();
    expect((await deliver(sink, '/hooks/nowhere?x=1', event.body)).status).toBe(400);
    expect(last()).toMatchObject({
      problem: 'unknown_path',
      path: '/hooks/nowhere',
      url: '/hooks/nowhere?x=1',
      endpoint: null,
      signature: null,
    });
    expect(last()?.event?.paymentId).toBe(event.paymentId);
  });

  it('a GET on an endpoint path', async () => {
    expect((await deliver(sink, '/hooks/test-all', Buffer.alloc(0), { method: 'GET' })).status).toBe(400);
    expect(last()).toMatchObject({ problem: 'method_not_post', method: 'GET' });
  });

  it('a body over maxBodyBytes is answered 413 and logged without its bytes', async () => {
    const big = Buffer.alloc(5000, 0x61);
    expect((await deliver(sink, '/hooks/test-all', big)).status).toBe(413);
    expect(last()).toMatchObject({ problem: 'body_too_large', bodyTruncated: true, bodySha256: null, body: '', bodySize: 5000 });
  });

  it('a chunked body over maxBodyBytes (no Content-Length) is answered 413 too', async () => {
    async function* chunks() {
      for (let i = 0; i < 10; i++) yield Buffer.alloc(1000, 0x62);
    }
    const response = await request(
      `${sink.url}/hooks/test-all`,
      { method: 'POST', body: Readable.from(chunks()), headers: { 'content-type': 'application/json' } },
    );
    await response.body.text();
    expect(response.statusCode).toBe(413);
    expect(last()).toMatchObject({ problem: 'body_too_large', bodyTruncated: true });
    expect(last()?.bodySize).toBeGreaterThan(4096);
  });

  it('every request is recorded with headers as received (lowercase names, repeats joined and listed)', async () => {
    const event = paymentEvent();
    const signature = signPayload(SECRETS.testAll, Math.floor(Date.now() / 1000), event.body);
    const response = await request(`${sink.url}/hooks/test-all`, {
      method: 'POST',
      body: event.body,
      headers: ['Service-Signature', signature, 'X-Twice', 'a', 'x-twice', 'b', 'Service-Event-ID', event.eventId],
    });
    await response.body.text();
    expect(response.statusCode).toBe(200);
    expect(last()?.headers).toMatchObject({ 'service-signature': signature, 'x-twice': 'a, b', 'service-event-id': event.eventId });
    expect(last()?.repeatedHeaders).toEqual(['x-twice']);
  });

  it('a repeated Service-Signature header is malformed', async () => {
    const event = paymentEvent();
    const signature = signPayload(SECRETS.testAll, Math.floor(Date.now() / 1000), event.body);
    const response = await request(`${sink.url}/hooks/test-all`, {
      method: 'POST',
      body: event.body,
      headers: ['Service-Signature', signature, 'Service-Signature', signature],
    });
    await response.body.text();
    expect(response.statusCode).toBe(400);
    expect(last()?.signature?.problem).toBe('malformed');
  });
});

describe('what a delivery records', () => {
  it('arrival time, peer, raw body and sha256, event fields, endpoint, verdict, attempt, answer', async () => {
    const event = paymentEvent({ marker: 'ack:202', type: 'payment.paid' });
    const before = performance.timeOrigin + performance.now();
    await deliver(sink, '/hooks/test-all', event.body);
    const delivery = last();
    expect(delivery).toMatchObject({
      method: 'POST',
      path: '/hooks/test-all',
      httpVersion: '1.1',
      peer: { address: '127.0.0.1' },
      bodySize: event.body.length,
      bodyTruncated: false,
      event: { id: event.eventId, type: 'payment.paid', livemode: false, paymentId: event.paymentId, sinkMarker: 'ack:202' },
      endpoint: { path: '/hooks/test-all', livemode: false, events: '*', enabled: true },
      signature: { valid: true, matchedSecretIndex: 0 },
      routingProblems: [],
      attempt: 1,
      problem: null,
      planProblem: null,
      answer: { kind: 'status', status: 202 },
    });
    expect(delivery?.receivedAt).toBeGreaterThanOrEqual(before);
    expect(delivery?.decidedAt).toBeGreaterThanOrEqual(delivery?.receivedAt ?? Infinity);
    expect(Number.isInteger(delivery?.receivedAt)).toBe(false); // sub-ms precision
    expect(Buffer.from(delivery?.body ?? '', 'base64').equals(event.body)).toBe(true);
    expect(delivery).not.toHaveProperty('endpoint.secret');
    expect(readFileSync(sink.logFile, 'utf8')).not.toContain(SECRETS.testAll);
  });

  it.each([
    ['a Live event at a Test endpoint', '/hooks/test-all', { livemode: true }, SECRETS.testAll, ['livemode_mismatch']],
    ['a Test event at a Live endpoint', '/hooks/live-all', {}, SECRETS.liveAll, ['livemode_mismatch']],
    ['an unsubscribed type', '/hooks/test-paid', { type: 'payment.created' }, SECRETS.testPaid, ['event_type_not_subscribed']],
    ['anything at a disabled endpoint', '/hooks/test-disabled', {}, SECRETS.disabled, ['endpoint_disabled']],
  ] as const)('routing problems are recorded: %s', async (_title, path, eventOptions, secret, problems) => {
    const event = paymentEvent(eventOptions);
    expect((await deliver(sink, path, event.body, { secret })).status).toBe(200);
    expect(last()?.routingProblems).toEqual(problems);
  });
});

describe('maxDeliveries', () => {
  it('past the cap, requests are answered 503 and counted as dropped, not logged', async () => {
    const small = tempDir();
    const capped = await startTestSink(small.dir, { maxDeliveries: 2 });
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await deliver(capped, '/hooks/test-all', paymentEvent().body)).status);
      expect(statuses).toEqual([200, 200, 503, 503]);
      expect(capped.stats()).toMatchObject({ deliveries: 2, dropped: 2 });
      expect(readFileSync(capped.logFile, 'utf8').trim().split('\n')).toHaveLength(3); // start + 2 deliveries
    } finally {
      await capped.close();
      small.remove();
    }
  });
});
