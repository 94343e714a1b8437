import { describe, expect, it } from 'vitest';
import { mapLimit } from '../../core/concurrency.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('mapLimit', () => {
  it('never has more than `limit` calls in flight, and uses all of them', async () => {
    let inFlight = 0;
    let peak = 0;
    await mapLimit(Array.from({ length: 20 }, (_, i) => i), 3, async (i) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await sleep(1 + (i % 4));
      inFlight--;
    });
    expect(peak).toBe(3);
    expect(inFlight).toBe(0);
  });

  it('returns results in item order, whatever order they finish in', async () => {
    const items = [30, 1, 20, 5, 10];
    const finished: number[] = [];
    const out = await mapLimit(items, 5, async (ms, i) => {
      await sleep(ms);
      finished.push(i);
      return ms * 2;
    });
    expect(out).toEqual([60, 2, 40, 10, 20]);
    expect(finished).not.toEqual([0, 1, 2, 3, 4]);
  });

  it('passes each item its index, and calls fn once per item', async () => {
    const seen: number[] = [];
    const out = await mapLimit(['a', 'b', 'c', 'd'], 2, async (s, i) => {
      seen.push(i);
      return `${s}${i}`;
    });
    expect(out).toEqual(['a0', 'b1', 'c2', 'd3']);
    expect(seen.sort()).toEqual([0, 1, 2, 3]);
  });

  it('propagates the first error, starts nothing after it, and waits for the calls running', async () => {
    const started: number[] = [];
    let settled = 0;
    const run = mapLimit(Array.from({ length: 10 }, (_, i) => i), 2, async (i) => {
      started.push(i);
      if (i === 1) throw new Error('item 1 broke');
      await sleep(20);
      settled++;
      return i;
    });
    await expect(run).rejects.toThrow('item 1 broke');
    // Item 0 was running when item 1 failed: it was awaited before the error came back.
    expect(settled).toBe(started.length - 1);
    expect(started.length).toBeLessThan(10);
  });

  it('stops starting items once `stop` says so; the results cover the items started', async () => {
    let calls = 0;
    const out = await mapLimit(Array.from({ length: 10 }, (_, i) => i), 2, async (i) => {
      calls++;
      return i;
    }, { stop: () => calls >= 4 });
    expect(out).toEqual([0, 1, 2, 3]);
  });

  it('handles an empty list, and refuses a limit that is not a positive integer', async () => {
    expect(await mapLimit([], 4, async () => 1)).toEqual([]);
    await expect(mapLimit([1], 0, async () => 1)).rejects.toThrow(RangeError);
    await expect(mapLimit([1], 1.5, async () => 1)).rejects.toThrow(RangeError);
  });
});
