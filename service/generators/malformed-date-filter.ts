/**
 * malformedDateFilter: values of listPayments' `created_from` / `created_to` that are no RFC 3339
 * date-time by any reading (LIST-FILTER-STRICT: 400 invalid_request). Borderline forms (a date
 * alone, a Unix time, no offset, a space for "T", 30 February) are observed, not generated here.
 *
 *   malformed-date = 2*12( a-z )                                   ; a word, "now", "yesterday"
 *                  / "2025-" month13-99 "-" day01-28 "T00:00:00Z"  ; a month past 12
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';

export function malformedDateFilter(): Arbitrary<string> {
  return fc.oneof(
    fc.stringMatching(/^[a-z]{2,12}$/),
    fc.tuple(
      fc.integer({ min: 13, max: 99 }),
      fc.integer({ min: 1, max: 28 }),
    ).map(([m, d]) => `2025-${m}-${String(d).padStart(2, '0')}T00:00:00Z`),
  );
}
