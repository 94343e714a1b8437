/**
 * validAllowedMethods: allowed_methods lists the spec clearly accepts.
 *
 * Spec, CreatePaymentRequest.allowed_methods: "array of PaymentMethod", "only BKASH or NAGAD".
 *
 *   allowed-methods = non-empty subset of { "BKASH", "NAGAD" }, in any order, no repeats
 *
 * The empty list and repeated values are not clearly valid (the spec says nothing about them);
 * a suite that wants them observes them.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { PAYMENT_METHODS, type PaymentMethod } from './create-payment-request.ts';

/** Non-empty subsets of the PaymentMethod values, in any order. */
export function validAllowedMethods(): Arbitrary<PaymentMethod[]> {
  return fc.shuffledSubarray([...PAYMENT_METHODS], { minLength: 1 });
}
