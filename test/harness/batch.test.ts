/**
 * Independent requests overlapped (service/harness/worker/batch.ts, issue 34 "distance"): eachCase tries
 * every item, a few at a time, and reports the first failure in list order whatever order the
 * answers came in; inOrder keeps the item order; batchRuns keeps about the same number of values.
 */
import { describe, expect, it } from 'vitest';
import { batchRuns, eachCase, inOrder } from '../../service/harness/worker/batch.ts';

const after = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('eachCase', () => {
  it('overlaps the items, tries every one and throws the first failure in list order', async () => {
    let inFlight = 0;
    let most = 0;
    const tried: number[] = [];
    const failing = eachCase([0, 1, 2, 3, 4, 5], async (i) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await after(i === 1 ? 30 : 5); // item 1 fails last, item 4 first
      inFlight--;
      tried.push(i);
      if (i === 1 || i === 4) throw new Error(`item ${i}`);
    }, 3);
    await expect(failing).rejects.toThrow('item 1 (1 more case(s) failed too)');
    expect(most).toBe(3);
    expect([...tried].sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe('inOrder', () => {
  it('answers in item order whatever order they finish in', async () => {
    expect(await inOrder([30, 1, 15], async (ms) => (await after(ms), ms), 3)).toEqual([30, 1, 15]);
  });
});

describe('batchRuns', () => {
  it('about the same number of values in batches of 1..batch', () => {
    expect(batchRuns(25, 6)).toBe(8);
    expect(batchRuns(1, 6)).toBe(1);
    expect(batchRuns(80, 1)).toBe(80);
  });
});
