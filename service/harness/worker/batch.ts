/**
 * Independent requests of a rule, overlapped: a rule waits on the target, and a target 50 ms away
 * makes every request that waits on the one before it cost 50 ms more (docs/design.md, "Distance:
 * what stays sequential"). What the spec orders (a cursor chain, a sequence checked against a
 * model, a Payment's transitions) stays one request after another; what does not depend on another
 * answer goes a few at a time, through the same client (its pace and 429 handling unchanged).
 *
 * - `eachCase`: every item of a fixed list checked, a few at a time; every item is tried, then the
 *   first failure in list order is thrown (the same failure whatever order the answers came in).
 * - `batched`: a seeded property whose runs each draw 1..`batch` values and check them side by side
 *   (eachCase); a failing batch shrinks by dropping values, so the counterexample is usually the
 *   one value that fails. The values a seed draws are the same on every run.
 */
import fc from 'fast-check';
import { mapLimit } from '../../../core/concurrency.ts';
import type { RuleContext } from './rule-test.ts';

/** Items checked at once by default: enough to hide a distant target's latency, few enough for a rate-limited key. */
export const DEFAULT_BATCH = 6;

/**
 * Runs `check` over every item, `concurrency` at a time; every item is tried, then the failure of
 * the first failing item (in table order) is thrown, saying how many others failed.
 */
export async function eachCase<T>(items: readonly T[], check: (item: T, index: number) => Promise<void>, concurrency = 8): Promise<void> {
  const outcomes = await mapLimit(items, Math.max(1, concurrency), async (item, index) => {
    try {
      await check(item, index);
      return null;
    } catch (error) {
      return { error };
    }
  });
  const failures = outcomes.filter((o) => o !== null); // in table order
  if (failures.length === 0) return;
  const first = failures[0]!.error;
  if (failures.length > 1 && first instanceof Error) first.message += ` (${failures.length - 1} more case(s) failed too)`;
  throw first;
}

/** About `cases` values in runs of 1..`batch` values each (the mean batch is (batch + 1) / 2). */
export function batchRuns(cases: number, batch: number): number {
  return Math.max(1, Math.ceil(cases / ((batch + 1) / 2)));
}

/** A seeded property over about `cases` values, checked 1..`batch` at a time (see above). */
export async function batched<T>(
  t: RuleContext, arb: fc.Arbitrary<T>, check: (value: T) => Promise<void>, cases: number, batch = DEFAULT_BATCH,
): Promise<void> {
  const runs = batchRuns(cases, batch);
  await t.property(fc.array(arb, { minLength: 1, maxLength: batch }), (values) => eachCase(values, check, batch), { runs });
}

/** `items.map(fn)`, `concurrency` at a time, in item order: for observations whose table keeps its order. */
export function inOrder<T, R>(items: readonly T[], fn: (item: T) => Promise<R>, concurrency = 8): Promise<R[]> {
  return mapLimit(items, concurrency, (item) => fn(item));
}
