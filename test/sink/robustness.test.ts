/**
 * The sink never crashes and stays available, whatever bytes arrive (raw sockets, with time-outs).
 */
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sinkClient, type RunningSink } from '../../service/sink/index.ts';
import { deliver, paymentEvent, startTestSink, tempDir } from './helpers.ts';

let sink: RunningSink;
const temp = tempDir();

beforeAll(async () => {
  sink = await startTestSink(temp.dir, { headersTimeoutMs: 300, requestTimeoutMs: 600, holdMs: 60_000 });
});
afterAll(async () => {
  await sink.close();
  temp.remove();
});

interface RawExchange {
  /** Everything the sink sent back before closing (or before the time-out). */
  reply: string;
  closedBySink: boolean;
  ms: number;
}

/** Writes `chunks` (with `gapMs` between them) on a raw TCP connection; waits at most `timeoutMs` for the sink to close it. */
function raw(chunks: Buffer[], { gapMs = 0, timeoutMs = 2_000, endAfterWrite = false } = {}): Promise<RawExchange> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket: Socket = connect(sink.port, '127.0.0.1');
    const received: Buffer[] = [];
    let settled = false;
    const done = (closedBySink: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ reply: Buffer.concat(received).toString('latin1'), closedBySink, ms: performance.now() - started });
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.on('data', (chunk) => received.push(chunk));
    socket.on('close', () => done(true));
    socket.on('error', () => done(true));
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        if (socket.destroyed) return;
        socket.write(chunk);
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      }
      if (endAfterWrite) socket.end();
    });
  });
}

async function stillHealthy(): Promise<void> {
  const health = await sinkClient(sink.url, { requestTimeoutMs: 2_000, token: sink.queryToken }).health();
  expect(health.ok).toBe(true);
}

describe('robustness over raw sockets', () => {
  it('garbage bytes get a 400 and a closed connection', async () => {
    const exchange = await raw([Buffer.from('\x00\x01\x02 hello \xff\xfe\r\n\r\n', 'latin1')]);
    expect(exchange.reply).toMatch(/^HTTP\/1\.1 400 /);
    expect(exchange.closedBySink).toBe(true);
    expect(sink.stats()).toMatchObject({ clientErrors: 1, deliveries: 0 });
    await stillHealthy();
  });

  it('64 random byte strings: each connection is answered or closed, the sink stays up', async () => {
    const exchanges = await Promise.all(
      Array.from({ length: 64 }, (_, i) => raw([randomBytes(1 + i * 37)], { endAfterWrite: true, timeoutMs: 1_500 })),
    );
    expect(exchanges.every((e) => e.closedBySink)).toBe(true);
    await stillHealthy();
  });

  it('a request line of HTTP-looking garbage (bad method, bad version, bad header) gets 400', async () => {
    for (const text of ['FOO BAR BAZ\r\n\r\n', 'POST /hooks/test-all HTTP/9.9\r\n\r\n', 'POST / HTTP/1.1\r\nBad Header\r\n\r\n']) {
      expect((await raw([Buffer.from(text)])).reply).toMatch(/^HTTP\/1\.1 400 /);
    }
    await stillHealthy();
  });

  it('huge headers get 431', async () => {
    const head = `POST /hooks/test-all HTTP/1.1\r\nHost: x\r\nX-Huge: ${'a'.repeat(100_000)}\r\n\r\n`;
    const exchange = await raw([Buffer.from(head)]);
    expect(exchange.reply).toMatch(/^HTTP\/1\.1 431 /);
    await stillHealthy();
  });

  it('a slowloris head (a byte every 50 ms, never finished) is cut off after headersTimeoutMs, while others are served', async () => {
    const bytes = [...Buffer.from('POST /hooks/test-all HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'a'.repeat(200))].map((b) => Buffer.from([b]));
    const slow = raw(bytes, { gapMs: 50, timeoutMs: 5_000 });
    await stillHealthy();
    expect((await deliver(sink, '/hooks/test-all', paymentEvent().body)).status).toBe(200);
    const exchange = await slow;
    expect(exchange.closedBySink).toBe(true);
    expect(exchange.ms).toBeLessThan(3_000);
  });

  it('a connection that sends nothing is closed too', async () => {
    const exchange = await raw([], { timeoutMs: 5_000 });
    expect(exchange.closedBySink).toBe(true);
    expect(exchange.ms).toBeLessThan(3_000);
  });

  it('a body that stops half-way is recorded as request_aborted, with the bytes that came', async () => {
    const before = sink.stats().rejected;
    const head = 'POST /hooks/test-all HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"id":"evt_half';
    await raw([Buffer.from(head)], { timeoutMs: 200 }); // we close after 200 ms, before the 600 ms request time-out
    await new Promise((r) => setTimeout(r, 50));
    const delivery = sink.deliveries().at(-1);
    expect(sink.stats().rejected).toBe(before + 1);
    expect(delivery).toMatchObject({ problem: 'request_aborted', answer: { kind: 'none' }, bodySize: 15 });
  });

  it('a body that never finishes is cut off by requestTimeoutMs (408) and recorded as request_aborted', async () => {
    const head = 'POST /hooks/test-all HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"id":"evt_stalled';
    const exchange = await raw([Buffer.from(head)], { timeoutMs: 5_000 });
    expect(exchange.reply).toMatch(/^HTTP\/1\.1 408 /);
    expect(exchange.closedBySink).toBe(true);
    expect(exchange.ms).toBeLessThan(3_000);
    await new Promise((r) => setTimeout(r, 50));
    expect(sink.deliveries().at(-1)).toMatchObject({ problem: 'request_aborted', bodySize: 18 });
    await stillHealthy();
  });

  it('close() does not hang on held (timeout) answers', async () => {
    const own = tempDir();
    const holding = await startTestSink(own.dir, { holdMs: 60_000 });
    const event = paymentEvent({ marker: 'timeout:5' });
    const pending = deliver(holding, '/hooks/test-all', event.body).catch((error: Error) => error);
    await holding.waitFor({ eventId: event.eventId }, { count: 1, timeoutMs: 2_000 });
    const started = performance.now();
    await holding.close();
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(await pending).toBeInstanceOf(Error);
    expect(holding.deliveries({ eventId: event.eventId })[0]?.settled?.how).toBe('sink_closed');
    own.remove();
  });
});
