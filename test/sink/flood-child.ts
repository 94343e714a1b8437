/**
 * Child process of flood.test.ts: a sink on port 0 flooded with junk from this process, then one
 * valid signed delivery; prints one JSON line with what the test judges, RSS before the flood and
 * the peak seen during it (this process holds only the client and the sink: no other test's heap).
 */
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import type { SinkStats } from '../../service/sink/index.ts';
import { deliver, paymentEvent, startTestSink, tempDir } from './helpers.ts';

/** The JSON line this child prints (flood.test.ts reads it). */
export interface FloodFigures {
  floodMs: number;
  /** Answers to the junk, by status code. */
  statuses: Record<string, number>;
  /** The valid delivery's answer. */
  answerStatus: number;
  stats: SinkStats;
  /** Stored, unrejected deliveries of the valid event. */
  stored: number;
  ringEntries: number;
  ringBodiless: number;
  ringBodyBytes: number;
  logLines: number;
  rss0: number;
  peak: number;
}

const junk = Number(process.argv[2]);
const temp = tempDir();
const sink = await startTestSink(temp.dir);
try {
  const pool = new Pool(sink.url, { connections: 16, pipelining: 4 });
  const fat = Buffer.alloc(64 * 1024, 0x7b);
  const rss0 = process.memoryUsage().rss;
  let peak = rss0;
  const started = performance.now();
  const statuses: Record<string, number> = {};
  for (let i = 0; i < junk; i += 500) {
    await Promise.all(
      Array.from({ length: Math.min(500, junk - i) }, async (_, j) => {
        const n = i + j;
        // 0: an event to an unknown path; 1: 64 KiB of non-event; 2: a GET; 3: a forged event, badly signed.
        const kind = n % 4;
        const res = await pool.request({
          method: kind === 2 ? 'GET' : 'POST',
          path: kind === 0 ? `/junk/${n}` : '/hooks/test-all',
          headers: { 'content-type': 'application/json', 'service-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` },
          body: kind === 2 ? undefined : kind === 1 ? fat : paymentEvent({ paymentId: 'pay_'.padEnd(4000, 'x') }).body,
        });
        await res.body.dump();
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      }),
    );
    peak = Math.max(peak, process.memoryUsage().rss);
  }
  const floodMs = performance.now() - started;
  await pool.close();

  const valid = paymentEvent();
  const answer = await deliver(sink, '/hooks/test-all', valid.body);
  const ring = sink.deliveries().filter((d) => d.problem !== null);
  const figures: FloodFigures = {
    floodMs,
    statuses,
    answerStatus: answer.status,
    stats: sink.stats(),
    stored: sink.deliveries({ eventId: valid.eventId }).filter((d) => d.problem === null).length,
    ringEntries: ring.length,
    ringBodiless: ring.filter((d) => d.body === '').length,
    ringBodyBytes: ring.reduce((n, d) => n + d.body.length, 0),
    logLines: readFileSync(sink.logFile, 'utf8').trim().split('\n').length,
    rss0,
    peak,
  };
  console.log(JSON.stringify(figures));
} finally {
  await sink.close();
  temp.remove();
}
