/**
 * unknownStatusFilter: values of listPayments' `status` filter that are no PaymentStatus (spec,
 * listPayments: status is a PaymentStatus; the catalogue's ruling: an unknown value answers 400
 * invalid_request, LIST-FILTER-STRICT). Near misses of the members (case, whitespace) are a table
 * of their own (enumNearMisses).
 *
 *   unknown-status = "NO_SUCH_STATUS_" 1*8( A-Z / 0-9 ) / 1*6DIGIT
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';

export function unknownStatusFilter(): Arbitrary<string> {
  return fc.oneof(
    fc.stringMatching(/^[A-Z0-9]{1,8}$/).map((s) => `NO_SUCH_STATUS_${s}`),
    fc.stringMatching(/^[0-9]{1,6}$/),
  );
}
