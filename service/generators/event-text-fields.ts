/**
 * eventTextFields: create fields whose text an event must carry byte for byte (data.object echoes
 * them; the signature covers the raw bytes). The run markers are added by the suite when it sends.
 *
 *   amount            = a valid amount
 *   description       = eventText, 1..40 units
 *   merchant_reference= eventText, 1..20 units                 ; optional
 *   metadata          = 0..3 entries, key "k_" 1*20( a-z / 0-9 / "_" ) (never a key of the suite's
 *                       own: conformance_run, sink), value eventText 1..40 units
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { eventText } from './event-text.ts';
import { validAmount } from './valid-amount.ts';

export interface TextFields {
  amount: string;
  description: string;
  merchant_reference?: string;
  metadata: Record<string, string>;
}

/** Metadata keys that never collide with the suite's own (`conformance_run`, `sink`). */
const metadataKey = fc.string({
  unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789_'.split('')),
  minLength: 1,
  maxLength: 20,
}).map((k) => `k_${k}`);

export function eventTextFields(): Arbitrary<TextFields> {
  return fc.record(
    {
      amount: validAmount(),
      description: eventText({ maxLength: 40 }),
      merchant_reference: eventText({ maxLength: 20 }),
      metadata: fc.dictionary(metadataKey, eventText({ maxLength: 40 }), { maxKeys: 3 }),
    },
    { requiredKeys: ['amount', 'description', 'metadata'] },
  );
}
