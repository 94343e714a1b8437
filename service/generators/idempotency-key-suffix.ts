/**
 * idempotencyKeySuffix: the generated part of an Idempotency-Key. The spec fixes no format; these
 * are visible ASCII characters a header carries as is. The suite puts the run's unique marker in
 * front (never generated), which keeps the whole under 64 characters and apart from other runs.
 *
 *   suffix = 1*32( ALPHA / DIGIT / "-" / "_" / "." / ":" / "~" / "+" / "=" / "/" )
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';

/** The characters of a suffix. */
export const IDEMPOTENCY_KEY_SUFFIX_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.:~+=/';

/** 1..32 characters of {@link IDEMPOTENCY_KEY_SUFFIX_CHARS}. */
export function idempotencyKeySuffix(): Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...IDEMPOTENCY_KEY_SUFFIX_CHARS.split('')), minLength: 1, maxLength: 32 });
}
