/**
 * bodyChange: how a second create body under the same Idempotency-Key differs from the first
 * (Idempotency, Rule 2: "a different body" answers 409 idempotency_conflict). Never "identical":
 * the suite applies the change to the first body.
 *
 *   change = "amount" / "description" / "metadata" / "external_id_only"
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';

export const BODY_CHANGES = ['amount', 'description', 'metadata', 'external_id_only'] as const;
export type BodyChange = (typeof BODY_CHANGES)[number];

export function bodyChange(): Arbitrary<BodyChange> {
  return fc.constantFrom<BodyChange>(...BODY_CHANGES);
}
