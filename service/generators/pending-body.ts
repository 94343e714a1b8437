/**
 * pendingBody: valid create bodies, without run markers, for the transitions suite: any amount and
 * some optional fields, so a transition is shown on Payments that differ in more than the amount
 * (the suite adds external_id and metadata when it sends).
 *
 *   body = { amount: valid-amount [, description: 0*30 chars] [, return_url: valid https URL]
 *            [, allowed_methods: non-empty subset] [, allowed_channels: non-empty subset] }
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { COLLECTION_CHANNELS, PAYMENT_METHODS } from './create-payment-request.ts';
import { validAmount } from './valid-amount.ts';
import { validReturnUrl } from './valid-return-url.ts';

/** Valid create bodies (without run markers): any amount and some optional fields. */
export function pendingBody(): Arbitrary<Record<string, unknown>> {
  return fc.record(
    {
      amount: validAmount(),
      description: fc.string({ maxLength: 30 }),
      return_url: validReturnUrl(),
      allowed_methods: fc.subarray([...PAYMENT_METHODS], { minLength: 1 }),
      allowed_channels: fc.subarray([...COLLECTION_CHANNELS], { minLength: 1 }),
    },
    { requiredKeys: ['amount'] },
  );
}
