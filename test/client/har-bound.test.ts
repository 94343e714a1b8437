/**
 * traffic.har is bounded by size (merchant/client/har.ts HarWriter): past the bound the oldest
 * entries are dropped, their count kept in the file, and what is kept is valid HAR, newest last;
 * no segment file is left beside it; memory stays flat (entries go to disk as they come).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HarWriter, type HarExchange } from '../../merchant/client/har.ts';

const dir = mkdtempSync(join(tmpdir(), 'har-bound-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const exchange = (n: number): HarExchange => ({
  startedAt: new Date(1_800_000_000_000 + n), durationMs: 1, method: 'POST', url: `http://127.0.0.1:1/v1/payments?n=${n}`,
  requestHeaders: { 'content-type': 'application/json' }, requestBody: JSON.stringify({ amount: '10.00', description: 'é'.repeat(500), n }),
  response: { status: 201, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: `pay_${n}`, n }) },
});

function write(name: string, count: number, maxBytes?: number): { har: any; size: number; writer: HarWriter } {
  const path = join(dir, name);
  const writer = new HarWriter(path, maxBytes);
  for (let n = 0; n < count; n++) writer.add(exchange(n));
  writer.close();
  return { har: JSON.parse(readFileSync(path, 'utf8')), size: statSync(path).size, writer };
}

describe('traffic.har bounded by size', () => {
  it('keeps every entry under the bound, in order, and says nothing of dropping', () => {
    const { har, writer } = write('small.har', 50);
    expect(har.log.entries).toHaveLength(50);
    expect(har.log.entries.map((e: any) => e.request.queryString[0].value)).toEqual(Array.from({ length: 50 }, (_, n) => String(n)));
    expect(har.log._droppedEntries).toBeUndefined();
    expect(writer.droppedEntries).toBe(0);
  });

  it('past the bound drops the oldest entries, counts them in the file, keeps the newest, and stays under the bound', () => {
    const max = 256 * 1024;
    const { har, size, writer } = write('bounded.har', 2_000, max);
    expect(size).toBeLessThanOrEqual(max + 4096);
    const kept = har.log.entries.length;
    expect(kept).toBeGreaterThan(50);
    expect(har.log._droppedEntries).toBe(2_000 - kept);
    expect(writer.droppedEntries + writer.entries).toBe(2_000);
    expect(har.log.comment).toMatch(new RegExp(`the oldest ${2_000 - kept} entries were dropped`));
    // The newest are kept, in order, through the last one.
    const ns = har.log.entries.map((e: any) => Number(e.request.queryString[0].value));
    expect(ns.at(-1)).toBe(1_999);
    expect(ns).toEqual([...ns].sort((a, b) => a - b));
    expect(ns[0]).toBe(2_000 - kept);
    expect(har.log.entries[0].request.postData.text).toContain('é'.repeat(500));
  });

  it('leaves no segment file behind, and 0 means no bound', () => {
    const { har } = write('unbounded.har', 1_000, 0);
    expect(har.log.entries).toHaveLength(1_000);
    expect(readdirSync(dir).filter((f) => f.endsWith('.part'))).toEqual([]);
  });
});
