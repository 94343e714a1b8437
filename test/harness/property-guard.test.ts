/**
 * service/harness/worker/property.ts GuardedPredicate: once the shrink budget is spent, or the
 * target's transport failed, fast-check stops: the predicate is not called again and no candidate
 * is walked. Before, every later candidate "passed" at once and fast-check walked the rest of the
 * shrink tree (one planted fault: 34 755 candidates, ~10 s of a worker's CPU) to the same answer.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TransportError } from '../../core/client.ts';
import { GuardedPredicate } from '../../service/harness/worker/property.ts';

/** A large shrink tree: arrays of strings, most shrink candidates filtered out. */
const WIDE = fc.array(fc.string({ minLength: 0, maxLength: 40 }).filter((s) => s.length % 3 !== 1), { minLength: 5, maxLength: 60 });

describe('a guarded property', () => {
  it('stops at the shrink budget: no candidate is tried or walked after it, the smallest failure found is kept', async () => {
    let calls = 0;
    let offered = 0;
    const guard = new GuardedPredicate<string[]>(async (v) => {
      calls += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (v.join('').length >= 10) throw new Error(`too long: ${v.join('').length}`);
    }, 40);
    const started = performance.now();
    const details = await fc.check(fc.asyncProperty(WIDE, async (v) => {
      offered += 1;
      await guard.run(v);
    }), { seed: 7, numRuns: 20, endOnFailure: false });
    expect(details.failed).toBe(true);
    expect(guard.shrinkCut).toBe(true);
    // One candidate found the budget spent; fast-check offered none after it.
    expect(offered).toBe(calls + 1);
    expect((details.counterexample![0] as string[]).join('').length).toBeGreaterThanOrEqual(10);
    expect(details.counterexamplePath).toBeTruthy();
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('stops at the first transport failure: later runs never reach the predicate', async () => {
    let calls = 0;
    const guard = new GuardedPredicate<number>(async () => {
      calls += 1;
      if (calls === 3) throw new TransportError('HPS_ERR_TARGET_UNREACHABLE', 'the target reset the connection');
    });
    const details = await fc.check(fc.asyncProperty(fc.integer(), guard.run), { seed: 1, numRuns: 100 });
    expect(calls).toBe(3);
    expect(details.failed).toBe(false);
    expect(details.numRuns).toBe(2);
    expect(() => guard.throwTransport()).toThrow(TransportError);
  });
});
