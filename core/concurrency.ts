/**
 * Bounded concurrency, written once: `fn` runs over the items at most `limit` at a time, items
 * started in order. Results come back in item order whatever order they finish in. The first
 * error stops new items from starting; the ones already running are awaited (nothing is left
 * running behind the caller's back), then that error is thrown.
 */

export interface MapLimitOptions {
  /**
   * Checked before each item starts: once it returns true no further item starts (a time
   * budget, a failure seen). The results then cover the items started, a prefix of the list.
   */
  stop?: () => boolean;
}

/** `items.map(fn)`, at most `limit` (≥ 1) calls in flight. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
  opts: MapLimitOptions = {},
): Promise<R[]> {
  if (!(Number.isInteger(limit) && limit >= 1)) throw new RangeError(`mapLimit: limit must be a positive integer, got ${limit}`);
  const results: R[] = new Array(items.length);
  let next = 0;
  let failed: { error: unknown } | null = null;
  const worker = async (): Promise<void> => {
    while (next < items.length && failed === null && !opts.stop?.()) {
      const index = next++;
      try {
        results[index] = await fn(items[index]!, index);
      } catch (error) {
        failed ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failed !== null) throw (failed as { error: unknown }).error;
  results.length = next;
  return results;
}
