/**
 * idempotencyBodyFields: the generated fields of a valid create body for the idempotency suite,
 * without run markers (the suite adds external_id and metadata.conformance_run when it sends).
 *
 *   amount            = a valid amount of at most 9 integer digits
 *   description       = 1*60 printable ASCII, no leading or trailing space     ; optional
 *   merchant_reference= 1*24( ALPHA / DIGIT / "_" / "-" )                      ; optional
 *   extra_metadata    = 0..3 entries, key [a-z][a-z0-9_]{0,15} (never "conformance_run" or "sink"),
 *                       value as description but 1*40
 *   allowed_methods   = non-empty subset of PaymentMethod                       ; optional
 *   allowed_channels  = non-empty subset of CollectionChannel                   ; optional
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { COLLECTION_CHANNELS, PAYMENT_METHODS } from './create-payment-request.ts';
import { validAmount } from './valid-amount.ts';

/** The generated fields of a valid create body (amount and optional fields), without run markers. */
export interface BodyFields {
  amount: string;
  description?: string;
  merchant_reference?: string;
  extra_metadata: Record<string, string>;
  allowed_methods?: string[];
  allowed_channels?: string[];
}

const text = (max: number) => fc.string({
  unit: 'grapheme-ascii',
  minLength: 1,
  maxLength: max,
}).filter((s) => s.trim() === s && s.length > 0);

export function idempotencyBodyFields(): Arbitrary<BodyFields> {
  return fc.record(
    {
      amount: validAmount({ maxIntegerDigits: 9 }),
      description: text(60),
      merchant_reference: fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/),
      extra_metadata: fc.dictionary(
        fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/).filter((k) => k !== 'conformance_run' && k !== 'sink'),
        text(40),
        { maxKeys: 3 },
      ),
      allowed_methods: fc.subarray([...PAYMENT_METHODS], { minLength: 1 }),
      allowed_channels: fc.subarray([...COLLECTION_CHANNELS], { minLength: 1 }),
    },
    { requiredKeys: ['amount', 'extra_metadata'] },
  );
}
