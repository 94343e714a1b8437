/**
 * uniqueSuffix: a random suffix that makes an identifier (external_id) unique among everything a
 * run creates, while staying reproducible from the seed.
 *
 *   unique-suffix = 20( ALPHA / DIGIT )        ; 62^20 ≈ 7·10^35 values
 *
 * fast-check's bias and shrinking both favour small, repeated values ("aaaa", ""), which would make
 * two "valid" requests share an external_id and draw a 409 `external_id_conflict`. So the suffix is
 * drawn without bias (`noBias`) and never shrunk (`noShrink`). Replaying the same seed against the
 * same target reproduces the same suffixes: the run marker's runId (a fresh one per run) is what
 * keeps replays apart.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { ALNUM, fixedStringOf } from './internal/charsets.ts';

export interface UniqueSuffixConstraints {
  /** Number of characters, 12..64. @defaultValue 20 */
  length?: number;
}

/** Unbiased, unshrinkable alphanumeric strings of a fixed length. */
export function uniqueSuffix(constraints: UniqueSuffixConstraints = {}): Arbitrary<string> {
  const length = constraints.length ?? 20;
  if (!Number.isInteger(length) || length < 12 || length > 64) throw new RangeError(`length must be 12..64, got ${length}`);
  return fc.noShrink(fc.noBias(fixedStringOf(ALNUM, length)));
}
