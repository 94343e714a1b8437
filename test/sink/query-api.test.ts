/**
 * The `/_sink/` API that suites in other processes read, the sinkClient over it, and the log that
 * outlives a sink (restart on the same log file).
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SinkError, SinkWaitTimeoutError, sinkClient, startSink, type DeliveryFilter, type RunningSink } from '../../service/sink/index.ts';
import { deliver, ENDPOINTS, paymentEvent, SECRETS, startTestSink, tempDir } from './helpers.ts';

/** Query tokens of the sinks started here, by origin: `get` sends the right one unless told otherwise. */
const tokens = new Map<string, string>();
const remember = (s: RunningSink): RunningSink => (tokens.set(s.url, s.queryToken), s);

async function get(url: string, headers: Record<string, string> = {}, method: 'GET' | 'POST' = 'GET') {
  const token = tokens.get(new URL(url).origin);
  const all = 'authorization' in headers || !token ? headers : { ...headers, authorization: `Bearer ${token}` };
  const response = await request(url, { method, headers: all, headersTimeout: 2_000, bodyTimeout: 2_000 });
  const text = await response.body.text();
  return { status: response.statusCode, json: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

describe('query API', () => {
  let sink: RunningSink;
  const temp = tempDir();
  const a = paymentEvent({ type: 'payment.created' });
  const b = paymentEvent({ type: 'payment.paid', paymentId: a.paymentId });
  const c = paymentEvent();

  beforeAll(async () => {
    sink = remember(await startTestSink(temp.dir));
    await deliver(sink, '/hooks/test-all', a.body);
    await deliver(sink, '/hooks/test-all', b.body);
    await deliver(sink, '/hooks/test-paid', b.body, { secret: SECRETS.testPaid });
    await deliver(sink, '/hooks/test-all', c.body, { signature: null });
  });
  afterAll(async () => {
    await sink.close();
    temp.remove();
  });

  it('GET /_sink/health counts deliveries and drops', async () => {
    expect(await get(`${sink.url}/_sink/health`)).toEqual({
      status: 200,
      // The unsigned delivery is rejected: counted apart, not among the deliveries.
      json: {
        ok: true,
        deliveries: 3,
        dropped: 0,
        rejected: 1,
        redirectHits: 0,
        unknownRedirectHits: 0,
        clientErrors: 0,
        skippedLogLines: 0,
      },
    });
  });

  it.each([
    ['', [1, 2, 3, 4]],
    [`?payment_id=${a.paymentId}`, [1, 2, 3]],
    [`?event_id=${b.eventId}`, [2, 3]],
    ['?type=payment.paid', [2, 3]],
    ['?path=/hooks/test-paid', [3]],
    ['?since_seq=2', [3, 4]],
    [`?payment_id=${a.paymentId}&path=/hooks/test-all&since_seq=1`, [2]],
    ['?event_id=evt_none', []],
    ['?limit=2', [1, 2]],
    ['?since_seq=1&limit=2', [2, 3]],
    ['?type_not_prefix=payment.paid', [1, 4]],
    ['?type_not_prefix=payment.', []],
    ['?no_object_id=1', []],
  ])('GET /_sink/deliveries%s', async (query, seqs) => {
    const { status, json } = await get(`${sink.url}/_sink/deliveries${query}`);
    expect(status).toBe(200);
    expect((json?.deliveries as { seq: number }[]).map((d) => d.seq)).toEqual(seqs);
  });

  it('serves the same records as in process (body base64 with its sha256)', async () => {
    const { json } = await get(`${sink.url}/_sink/deliveries?event_id=${a.eventId}`);
    expect(json?.deliveries).toEqual(JSON.parse(JSON.stringify(sink.deliveries({ eventId: a.eventId }))));
    const [delivery] = json?.deliveries as { body: string; bodySha256: string }[];
    expect(Buffer.from(delivery?.body ?? '', 'base64').equals(a.body)).toBe(true);
    expect(delivery?.bodySha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['/_sink/deliveries?since_seq=abc', 400],
    ['/_sink/deliveries?paymentId=x', 400],
    ['/_sink/deliveries?limit=0', 400],
    ['/_sink/deliveries?limit=1e3', 400],
    ['/_sink/deliveries?no_object_id=true', 400],
    ['/_sink/deliveries?path=/a&path=/b', 400],
    ['/_sink/redirect-hits?x=1', 400],
    ['/_sink/nothing', 404],
    ['/_sink', 404],
  ])('GET %s answers %i', async (path, status) => {
    expect((await get(`${sink.url}${path}`)).status).toBe(status);
  });

  it('only GET: POST /_sink/deliveries answers 405, and is not recorded as a delivery', async () => {
    expect((await get(`${sink.url}/_sink/deliveries`, {}, 'POST')).status).toBe(405);
    expect(sink.stats().deliveries).toBe(3);
  });

  it('GET /_sink/redirect-hits', async () => {
    expect(await get(`${sink.url}/_sink/redirect-hits`)).toEqual({ status: 200, json: { redirectHits: [] } });
  });

  it('sinkClient reads deliveries, redirect hits and health', async () => {
    const client = sinkClient(sink.url, { token: sink.queryToken });
    expect((await client.deliveries({ paymentId: a.paymentId, path: '/hooks/test-all' })).map((d) => d.seq)).toEqual([1, 2]);
    expect(await client.redirectHits()).toEqual([]);
    expect((await client.health()).deliveries).toBe(3);
  });

  it('sinkClient sends every filter field as the sink reads it: the same deliveries as in process', async () => {
    const client = sinkClient(sink.url, { token: sink.queryToken });
    const filters: DeliveryFilter[] = [
      { noObjectId: true }, { typeNotPrefix: 'payment.paid' }, { sinceSeq: 1, limit: 2 },
      { eventType: 'payment.paid', path: '/hooks/test-paid' }, { paymentId: a.paymentId, eventId: b.eventId },
    ];
    for (const f of filters) expect((await client.deliveries(f)).map((d) => d.seq)).toEqual(sink.deliveries(f).map((d) => d.seq));
  });

  it('sinkClient.waitFor polls until the count is reached', async () => {
    const later = paymentEvent({ marker: 'fail:500x1' });
    setTimeout(() => {
      void deliver(sink, '/hooks/test-all', later.body).then(() => deliver(sink, '/hooks/test-all', later.body));
    }, 100);
    const found = await sinkClient(
      sink.url,
      { token: sink.queryToken },
    ).waitFor({ eventId: later.eventId }, { count: 2, timeoutMs: 3_000, pollMs: 50 });
    expect(found.map((d) => d.answer)).toEqual([
      { kind: 'status', status: 500 },
      { kind: 'status', status: 200 },
    ]);
  });

  it('sinkClient.waitFor rejects with SinkWaitTimeoutError carrying what it saw', async () => {
    const error = await sinkClient(sink.url, { token: sink.queryToken })
      .waitFor({ eventId: a.eventId }, { count: 2, timeoutMs: 150, pollMs: 50 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SinkWaitTimeoutError);
    expect(error).toMatchObject({ code: 'SINK_WAIT_TIMEOUT', expectedCount: 2 });
    expect((error as SinkWaitTimeoutError).deliveries).toHaveLength(1);
  });

  it('in process: waitFor resolves on arrival, and rejects after its time-out', async () => {
    const event = paymentEvent();
    const waiting = sink.waitFor({ eventId: event.eventId }, { count: 1, timeoutMs: 2_000 });
    await deliver(sink, '/hooks/test-all', event.body);
    expect((await waiting).map((d) => d.event?.id)).toEqual([event.eventId]);
    await expect(sink.waitFor({ eventId: 'evt_never' }, { count: 1, timeoutMs: 50 })).rejects.toBeInstanceOf(SinkWaitTimeoutError);
  });

  it('sinkClient reports an unreachable sink as SINK_QUERY_FAILED', async () => {
    await expect(sinkClient('http://127.0.0.1:1', { requestTimeoutMs: 500 }).health()).rejects.toMatchObject({ code: 'SINK_QUERY_FAILED' });
  });
});

describe('query token', () => {
  it('/_sink/ calls need the bearer token (given, or generated when absent); deliveries do not', async () => {
    const temp = tempDir();
    const tok = 'tok_1234567890abcdef';
    const sink = await startTestSink(temp.dir, { queryToken: tok });
    const generated = await startTestSink(temp.dir, { logFile: join(temp.dir, 'other.jsonl') });
    try {
      expect(sink.queryToken).toBe(tok);
      expect(generated.queryToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
      for (const s of [sink, generated]) {
        for (const path of ['/_sink/health', '/_sink/deliveries', '/_sink/redirect-hits', '/_sink/rejected', '/_sink/nothing']) {
          expect((await get(`${s.url}${path}`)).status, path).toBe(401);
          expect((await get(`${s.url}${path}`, { authorization: `Bearer ${s.queryToken}x` })).status, path).toBe(401);
          expect((await get(`${s.url}${path}`, { authorization: `Bearer ${s.queryToken.slice(0, -1)}` })).status, path).toBe(401);
          expect((await get(`${s.url}${path}`, { authorization: `bearer ${s.queryToken}` })).status, path).toBe(401);
        }
      }
      expect((await get(`${sink.url}/_sink/health`, { authorization: `Bearer ${tok}` })).status).toBe(200);
      expect((await deliver(sink, '/hooks/test-all', paymentEvent().body)).status).toBe(200);
      expect(await sinkClient(sink.url, { token: tok }).deliveries()).toHaveLength(1);
      await expect(sinkClient(sink.url).deliveries()).rejects.toMatchObject({ code: 'SINK_QUERY_FAILED', status: 401 });
      await expect(sinkClient(generated.url, { token: tok }).deliveries()).rejects.toMatchObject({ status: 401 });
    } finally {
      await sink.close();
      await generated.close();
      temp.remove();
    }
  });

  it('a token shorter than 16 characters, or none off loopback, is refused', async () => {
    const temp = tempDir();
    try {
      await expect(startTestSink(temp.dir, { queryToken: 'short' })).rejects.toMatchObject({ code: 'SINK_BAD_OPTIONS' });
      await expect(startTestSink(
        temp.dir,
        { listen: '0.0.0.0:0' },
      )).rejects.toThrow(/refusing to listen on 0\.0\.0\.0 \(not loopback\) without a query token/);
      const open = await startTestSink(temp.dir, { listen: '0.0.0.0:0', queryToken: 'tok_1234567890abcdef' });
      // The real bound address, not a loopback alias.
      expect(open.boundAddress).toBe(`0.0.0.0:${open.port}`);
      await open.close();
    } finally {
      temp.remove();
    }
  });
});

describe('the log outlives the sink', () => {
  it('a restarted sink on the same log keeps its deliveries, seq numbers, attempt counts and redirect tokens', async () => {
    const temp = tempDir();
    try {
      const first = await startTestSink(temp.dir);
      const event = paymentEvent({ marker: 'redirect:1' });
      expect((await deliver(first, '/hooks/test-all', event.body)).status).toBe(302);
      const [original] = first.deliveries();
      await first.close();

      const second = await startTestSink(temp.dir);
      try {
        expect(second.port).not.toBe(0);
        const [reloaded] = await sinkClient(second.url, { token: second.queryToken }).deliveries({ eventId: event.eventId });
        expect(reloaded).toEqual(JSON.parse(JSON.stringify(original)));
        // The retry is attempt 2 (answered 200), with the next seq.
        expect((await deliver(second, '/hooks/test-all', event.body)).status).toBe(200);
        expect(second.deliveries().map((d) => [d.seq, d.attempt])).toEqual([
          [1, 1],
          [2, 2],
        ]);
        // The first sink's redirect target is still recognised.
        const token = original?.answer.kind === 'redirect' ? original.answer.redirectToken : '';
        await (await request(`${second.url}/_sink/redirect-target/${token}`)).body.text();
        expect(second.redirectHits()).toMatchObject([{ n: 1, token, forSeq: 1, method: 'GET' }]);
      } finally {
        await second.close();
      }
      const third = await startTestSink(temp.dir);
      expect(third.stats()).toMatchObject({ deliveries: 2, redirectHits: 1 });
      await third.close();
    } finally {
      temp.remove();
    }
  });

  it('a torn last line (a crash mid-write) is skipped and counted; the next line is not glued to it', async () => {
    const temp = tempDir();
    try {
      const first = await startTestSink(temp.dir);
      await deliver(first, '/hooks/test-all', paymentEvent().body);
      await first.close();
      const torn = '{"line":"delivery","delivery":{"seq":2,"bo';
      appendFileSync(join(temp.dir, 'sink.jsonl'), torn);

      const second = await startTestSink(temp.dir);
      expect(second.stats()).toMatchObject({ deliveries: 1, skippedLogLines: 1 });
      await deliver(second, '/hooks/test-all', paymentEvent().body);
      await second.close();

      const third = await startTestSink(temp.dir);
      expect(third.stats()).toMatchObject({ deliveries: 2, skippedLogLines: 1 });
      expect(third.deliveries().map((d) => d.seq)).toEqual([1, 2]);
      await third.close();
      const lines = readFileSync(join(temp.dir, 'sink.jsonl'), 'utf8').split('\n');
      expect(lines).toContain(torn);
      expect(lines.filter((line) => line.includes('"line":"start"'))).toHaveLength(3);
    } finally {
      temp.remove();
    }
  });

  it('the log holds the delivery by the time the client has its answer (the append is synchronous, before the answer)', async () => {
    const temp = tempDir();
    const sink = await startSink({ listen: '127.0.0.1:0', endpoints: ENDPOINTS, logFile: join(temp.dir, 'deep', 'sink.jsonl') });
    try {
      const event = paymentEvent();
      await deliver(sink, '/hooks/test-all', event.body);
      const lines = readFileSync(sink.logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { line: string });
      expect(lines.map((l) => l.line)).toEqual(['start', 'delivery']);
    } finally {
      await sink.close();
      temp.remove();
    }
  });
});

describe('bad options are harness trouble (SinkError SINK_BAD_OPTIONS / SINK_LISTEN_FAILED)', () => {
  const temp = tempDir();
  const logFile = join(temp.dir, 'x.jsonl');
  afterAll(() => temp.remove());

  it.each([
    ['listen without a port', { listen: '127.0.0.1' }],
    ['listen port over 65535', { listen: '127.0.0.1:70000' }],
    ['an endpoint under /_sink', { endpoints: [{ ...ENDPOINTS[0]!, path: '/_sink/deliveries' }] }],
    ['a duplicated endpoint path', { endpoints: [ENDPOINTS[0]!, ENDPOINTS[0]!] }],
    ['an endpoint without a secret', { endpoints: [{ ...ENDPOINTS[0]!, secret: '' }] }],
    ['an endpoint path with a query', { endpoints: [{ ...ENDPOINTS[0]!, path: '/hooks?x=1' }] }],
    ['a negative maxBodyBytes', { maxBodyBytes: -1 }],
  ])('%s', async (_title, override) => {
    await expect(startSink({ listen: '127.0.0.1:0', endpoints: ENDPOINTS, logFile, ...override })).rejects.toMatchObject({
      name: 'SinkError',
      code: 'SINK_BAD_OPTIONS',
    });
  });

  it('a port already in use', async () => {
    const sink = await startTestSink(temp.dir);
    try {
      const error = await startSink({ listen: `127.0.0.1:${sink.port}`, endpoints: ENDPOINTS, logFile }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SinkError);
      expect(error).toMatchObject({ code: 'SINK_LISTEN_FAILED' });
    } finally {
      await sink.close();
    }
  });
});
