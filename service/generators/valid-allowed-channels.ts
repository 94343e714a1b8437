/**
 * validAllowedChannels: allowed_channels lists the spec clearly accepts.
 *
 * Spec, CreatePaymentRequest.allowed_channels: "array of CollectionChannel", "only the four channel
 * values".
 *
 *   allowed-channels = non-empty subset of { "SEND_MONEY", "PAYMENT", "CASH_IN", "BANK_TRANSFER" },
 *                      in any order, no repeats
 *
 * The empty list and repeated values are not clearly valid (the spec says nothing about them).
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { COLLECTION_CHANNELS, type CollectionChannel } from './create-payment-request.ts';

/** Non-empty subsets of the CollectionChannel values, in any order. */
export function validAllowedChannels(): Arbitrary<CollectionChannel[]> {
  return fc.shuffledSubarray([...COLLECTION_CHANNELS], { minLength: 1 });
}
