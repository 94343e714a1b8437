/**
 * badLimit: values of listPayments' `limit` outside 1..100 or not an integer (spec, Limits: "limit
 * 1..100"; LIST-LIMIT-BOUNDS: 400 invalid_request). The edges (0, 101, …) are a table of their own
 * in the suite, probed on every seed.
 *
 *   bad-limit = 101..1000000 / -1000000..0 / 1..99 "." 1..9 / 1*8( a-z )
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';

export function badLimit(): Arbitrary<string> {
  return fc.oneof(
    fc.integer({ min: 101, max: 1_000_000 }).map(String),
    fc.integer({ min: -1_000_000, max: 0 }).map(String),
    fc.tuple(fc.integer({ min: 1, max: 99 }), fc.integer({ min: 1, max: 9 })).map(([i, f]) => `${i}.${f}`),
    fc.stringMatching(/^[a-z]{1,8}$/),
  );
}
