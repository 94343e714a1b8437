/**
 * What the sink keeps is bounded on its own (issue 21, item 5): the redirect hits of a token of ours
 * (a ring per endpoint, the first 3 per token logged), the stored bodies (maxStoredBodyBytes), and a
 * reload (at most maxDeliveries, lines over the line cap skipped, strangers' hits of older logs dropped).
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { logLines } from '../../service/sink/log-lines.ts';
import { REDIRECT_HIT_LIMITS } from '../../service/sink/redirect-hits.ts';
import type { RunningSink } from '../../service/sink/index.ts';
import { deliver, paymentEvent, SECRETS, startTestSink, tempDir } from './helpers.ts';

const temps: Array<ReturnType<typeof tempDir>> = [];
const open: RunningSink[] = [];
afterAll(async () => {
  for (const sink of open) await sink.close();
  for (const temp of temps) temp.remove();
});

async function sinkIn(options: Parameters<typeof startTestSink>[1] = {}, dir?: string): Promise<RunningSink> {
  const where = dir ?? (temps[temps.push(tempDir()) - 1]!.dir);
  const sink = await startTestSink(where, options);
  open.push(sink);
  return sink;
}

const logKinds = (sink: RunningSink) => readFileSync(sink.logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l).line as string);

describe('redirect hits with our tokens', () => {
  it(`keep the last ${REDIRECT_HIT_LIMITS.perEndpoint} per endpoint, log the first ${REDIRECT_HIT_LIMITS.loggedPerToken} per token, count them all`, async () => {
    const sink = await sinkIn();
    const answer = await deliver(sink, '/hooks/test-all', paymentEvent({ marker: 'redirect:1' }).body);
    const hits = REDIRECT_HIT_LIMITS.perEndpoint + 50;
    for (let i = 0; i < hits; i++) await (await request(
      String(answer.headers.location),
      { method: 'POST', body: Buffer.alloc(1_000, 0x62) },
    )).body.dump();
    expect(sink.stats()).toMatchObject({ redirectHits: hits, unknownRedirectHits: 0 });
    const kept = sink.redirectHits();
    expect(kept).toHaveLength(REDIRECT_HIT_LIMITS.perEndpoint);
    expect(kept.at(-1)!.n).toBe(hits);
    expect(kept.every((h) => h.body === '' && h.bodySize === 1_000)).toBe(true);
    expect(logKinds(sink).filter((k) => k === 'redirect_hit')).toHaveLength(REDIRECT_HIT_LIMITS.loggedPerToken);
  });
});

describe('the rejected rings under a stranger\'s flood', () => {
  it('keep the target\'s own mis-signed and misrouted deliveries of a Payment it also delivered correctly; strangers\' entries go first', async () => {
    const sink = await sinkIn({ rejectedRing: { evidenceEntries: 50, junkEntries: 50 } });
    const paymentId = `pay_corroborated_${process.pid}`;
    // The target: a correct delivery, one signed with another endpoint's secret, one to a path of no endpoint.
    expect((await deliver(sink, '/hooks/test-all', paymentEvent({ paymentId }).body)).status).toBe(200);
    expect((await deliver(
      sink,
      '/hooks/test-paid',
      paymentEvent({ paymentId, type: 'payment.paid' }).body,
      { secret: SECRETS.testAll },
    )).status).toBe(400);
    expect((await deliver(sink, '/hooks/misrouted', paymentEvent({ paymentId }).body)).status).toBe(400);
    // A stranger: 300 forged events to a known endpoint and 300 to unknown paths.
    for (let i = 0; i < 300; i++) {
      await deliver(sink, '/hooks/test-all', paymentEvent().body, { signature: `t=1,v1=${'0'.repeat(64)}` });
      await deliver(sink, `/junk/${i}`, paymentEvent().body);
    }
    expect(sink.deliveries({ paymentId }).map((d) => [d.path, d.problem])).toEqual([
      ['/hooks/test-all', null],
      ['/hooks/test-paid', 'bad_signature'],
      ['/hooks/misrouted', 'unknown_path'],
    ]);
    expect(sink.stats().rejected).toBe(602);
    expect(sink.deliveries().filter((d) => d.problem !== null).length).toBe(100);
  });
});

describe('stored bodies', () => {
  it('past maxStoredBodyBytes a valid delivery is answered 503 and counted as dropped, as past maxDeliveries', async () => {
    const sink = await sinkIn({ maxStoredBodyBytes: 4_000 });
    const big = paymentEvent({ paymentId: 'pay_'.padEnd(1_500, 'z') });
    expect((await deliver(sink, '/hooks/test-all', big.body)).status).toBe(200);
    expect((await deliver(sink, '/hooks/test-all', big.body)).status).toBe(200);
    expect((await deliver(sink, '/hooks/test-all', big.body)).status).toBe(503);
    expect(sink.stats()).toMatchObject({ deliveries: 2, dropped: 1 });
  });
});

describe('a reload keeps what a running sink would', () => {
  it('at most maxDeliveries deliveries; a line over the line cap and strangers\' hits of an older log are skipped and counted', async () => {
    const temp = tempDir();
    temps.push(temp);
    const first = await sinkIn({}, temp.dir);
    for (let i = 0; i < 5; i++) expect((await deliver(first, '/hooks/test-all', paymentEvent().body)).status).toBe(200);
    await first.close();
    const file = join(temp.dir, 'sink.jsonl');
    // What an older sink wrote: a stranger's hit with a body, and a line far over the cap (2 MiB of body with maxBodyBytes 64 KiB).
    const strangerHit = {
      n: 1,
      receivedAt: 1,
      method: 'POST',
      url: '/_sink/redirect-target/x',
      token: 'x',
      forSeq: null,
      peer: {},
      headers: {},
      body: 'QUFB',
      bodySha256: '',
      bodySize: 3,
    };
    appendFileSync(
      file,
      `${JSON.stringify({
        line: 'redirect_hit',
        hit: strangerHit,
      })}\n{"line":"delivery","delivery":{"seq":6,"body":"${'A'.repeat(2 << 20)}"}}\n`,
    );
    const again = await sinkIn({ maxDeliveries: 3, maxBodyBytes: 64 * 1024 }, temp.dir);
    expect(again.deliveries().map((d) => d.seq)).toEqual([1, 2, 3]);
    // 2 deliveries past the cap, the stranger's hit, the overlong line.
    expect(again.stats()).toMatchObject({ deliveries: 3, redirectHits: 0, skippedLogLines: 4 });
    expect((await deliver(again, '/hooks/test-all', paymentEvent().body)).status).toBe(503);
  });

  it('logLines holds at most the line cap of one line: longer lines are reported overlong, a last line without LF torn', async () => {
    const temp = tempDir();
    temps.push(temp);
    const file = join(temp.dir, 'lines');
    writeFileSync(file, `short\n${'x'.repeat(3 << 20)}\n${'y'.repeat(100)}\nend\ntorn`);
    const items: string[] = [];
    for await (const item of logLines(
      file,
      readFileSync(file).length,
      1_000,
    )) items.push(item.kind === 'line' ? item.text.slice(0, 5) : item.kind);
    expect(items).toEqual(['short', 'overlong', 'yyyyy', 'end', 'torn']);
  });

  it('logLines decodes a line within one read in place, joins one that spans reads, a character split by a read too', async () => {
    const temp = tempDir();
    temps.push(temp);
    const file = join(temp.dir, 'spanning');
    // The reads are 1 MiB: the third line's '€' (3 bytes) starts one byte before the first read ends.
    const first = 'a'.repeat(1000);
    const second = 'b'.repeat((1 << 20) - 1 - 1001 - 1);
    const third = `€${'c'.repeat(5000)}`;
    writeFileSync(file, `${first}\n${second}\n${third}\nafter\n`);
    expect(Buffer.byteLength(`${first}\n${second}\n`)).toBe((1 << 20) - 1);
    const items: string[] = [];
    for await (const item of logLines(file, readFileSync(file).length, 1 << 20)) items.push(item.kind === 'line' ? item.text : item.kind);
    expect(items).toEqual([first, second, third, 'after']);
  });
});
