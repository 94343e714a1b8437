/**
 * The proxy judges off the relay's path (merchant/client/judge-queue.ts): the answer is relayed first, the response
 * rules and traffic.har take the exchange from a bounded queue a batch at a time. A normal run judges and writes every
 * exchange; an exchange that comes while the queue is full is counted, never dropped silently: the console says how
 * many, the response rules are not PASS on part of the traffic (SKIP, their obligations not tried, the verdict
 * incomplete), and traffic.har says how many it lacks.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../catalogue/report/model.ts';
import { JudgeQueue } from '../../merchant/client/judge-queue.ts';
import type { ProxyOptions } from '../../merchant/client/proxy-run.ts';
import { startStandaloneProxy } from '../support/standalone-proxy.ts';

const BURST = 40;

/** The standalone proxy before the embedded reference, a burst of BURST reads at once (no key: 401s, judged all the same). */
async function burst(judgeQueue?: ProxyOptions['judgeQueue']) {
  const reportDir = mkdtempSync(join(tmpdir(), 'hps-proxy-queue-'));
  const proxy = await startStandaloneProxy({ reportDir, ...(judgeQueue ? { judgeQueue } : {}) });
  const statuses = await Promise.all(Array.from({ length: BURST }, async (_, i) => {
    const res = await request(`${proxy.url}/v1/payments?limit=${1 + (i % 5)}`);
    await res.body.text();
    return res.statusCode;
  }));
  const result = await proxy.stop();
  const lines = proxy.lines;
  const service = JSON.parse(readFileSync(join(reportDir, 'service', 'report.json'), 'utf8')) as Report;
  const har = JSON.parse(readFileSync(join(reportDir, 'traffic.har'), 'utf8')) as { log: Record<string, unknown> & { entries: unknown[] } };
  return { lines, result, service, har, statuses };
}

describe('the judging queue', () => {
  it('takes a burst up to its bound, in order, and counts the rest as not judged', () => {
    const judged: number[][] = [];
    const q = new JudgeQueue<number>((batch) => judged.push([...batch]), { exchanges: 3, bytes: 1000 });
    expect([1, 2, 3, 4, 5].map((n) => q.push(n, 10))).toEqual([true, true, true, false, false]);
    q.drain();
    expect(judged).toEqual([[1, 2, 3]]);
    expect(q.notJudged).toBe(2);
    expect(q.deepest).toBe(3);
    // Emptied, it takes again; bytes bound it too (the first is always taken, however large).
    expect([q.push(6, 5000), q.push(7, 1)]).toEqual([true, false]);
    q.drain();
    expect(judged).toEqual([[1, 2, 3], [6]]);
    expect(q.notJudged).toBe(3);
  });
});

describe('proxy: judging off the relay\'s path', () => {
  it('a normal run judges and writes every exchange of a burst', async () => {
    const { lines, service, har, statuses, result } = await burst();
    expect(statuses).toEqual(Array(BURST).fill(401));
    expect(result.exchanges).toBe(BURST);
    const listed = service.rules.find((r) => r.id === 'RESP-STATUS-LISTED')!;
    expect(listed.status).toBe('pass');
    expect(listed.observed).toEqual({ answers_checked: BURST, findings: 0 });
    expect(har.log.entries).toHaveLength(BURST);
    expect(har.log._notWrittenEntries).toBeUndefined();
    expect(lines.join('\n')).not.toMatch(/judging queue/);
  }, 60_000);

  it('a burst larger than the queue\'s bound: the overflow is counted and said, the response rules not PASS on part of it', async () => {
    // A bound of 0 turns every exchange away: what a queue full for the whole burst does, deterministically.
    const { lines, service, har, statuses } = await burst({ exchanges: 0, bytes: 1 });
    expect(statuses).toEqual(Array(BURST).fill(401));
    expect(lines).toContain(`proxy: ${BURST} of ${BURST} exchanges came while the judging queue was full (its bound: 0 exchanges, ` +
      '0 MiB of bodies) and were not judged, nor written to traffic.har: the response rules they would have exercised not tried ' +
      '(the service\'s answers incomplete)');
    const listed = service.rules.find((r) => r.id === 'RESP-STATUS-LISTED')!;
    expect(listed.status).toBe('skip');
    expect(listed.reason).toMatch(new RegExp(`not tried on every answer: ${BURST} of ${BURST} exchanges came while the judging queue`));
    expect(listed.not_tried?.length).toBeGreaterThan(0);
    expect(listed.observed).toMatchObject({ exchanges_not_judged: BURST });
    expect(service.verdict).toBe('incomplete');
    const untried = service.obligations!.entries.filter((e) => e.status === 'not_tried' && e.rules.includes('RESP-STATUS-LISTED'));
    expect(untried.length).toBeGreaterThan(0);
    expect(untried.every((e) => /judging queue was full/.test(e.why ?? ''))).toBe(true);
    expect(har.log.entries).toHaveLength(0);
    expect(har.log._notWrittenEntries).toBe(BURST);
    expect(String(har.log.comment)).toMatch(`${BURST} exchanges are not in this file`);
  }, 60_000);
});
