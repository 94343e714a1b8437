/** data.object of an event against what the operation answered, field by field. */
import { Mismatch, deepEqual, short } from '../../service/harness/worker/expect.ts';

/** The top-level fields where two objects differ (missing, extra or unequal). */
export function fieldDiff(actual: any, expected: any): string[] {
  if (actual === null || typeof actual !== 'object' || expected === null || typeof expected !== 'object') {
    return deepEqual(actual, expected) ? [] : ['(whole value)'];
  }
  const keys = new Set([...Object.keys(actual), ...Object.keys(expected)]);
  return [...keys].filter((k) => !deepEqual(actual[k], expected[k])).sort();
}

/** Throws when data.object differs from what the operation answered, naming the fields. */
export function expectSameObject(actual: any, expected: any, what: string): void {
  const diff = fieldDiff(actual, expected);
  if (diff.length === 0) return;
  const detail = diff.slice(0, 6).map((k) => `${k}: ${short(actual?.[k])} vs ${short(expected?.[k])}`).join('; ');
  throw new Mismatch(`${what}: data.object differs from the operation's answer in ${diff.join(', ')} (event vs answer: ${detail})`, expected, actual);
}
