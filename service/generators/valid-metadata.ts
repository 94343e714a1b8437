/**
 * validMetadata: metadata objects the spec clearly accepts.
 *
 * Spec, Metadata: "An object with string keys and string values"; Limits: at most 20 keys, key
 * length at most 64 characters, value length at most 500 characters. Characters are printable ASCII
 * only, so "characters", UTF-16 code units and UTF-8 bytes are the same count and a limit means one
 * thing (emoji and other non-ASCII text are in borderlineMetadata). Exactly-at-limit objects
 * (20 keys of 64 characters, each with a 500-character value) are yielded on purpose: they must pass.
 *
 *   metadata = { *20( key: value ) }               ; keys distinct, not in excludeKeys, include entries last
 *   key      = 1*64( %x20-7E )                     ; first and last character not a space
 *   value    = 0*500( %x20-7E )
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { RESERVED_METADATA_KEYS } from './create-payment-request.ts';
import { printableAscii, trimmedPrintableAscii } from './internal/charsets.ts';
import { entriesToObject } from './internal/entries.ts';

export interface ValidMetadataConstraints {
  /** Most keys, 0..20 (less leaves room for keys the caller adds, such as a run marker). @defaultValue 20 */
  maxKeys?: number;
  /**
   * Keys never generated: the suite's own markers (DESIGN: `conformance_run` finds a run's payments,
   * `sink` tells the webhook sink how to answer).
   * @defaultValue ['conformance_run', 'sink']
   */
  excludeKeys?: readonly string[];
  /**
   * Entries every value carries (a run marker such as `{ conformance_run: runId }`), counted within
   * maxKeys; they must themselves be within the limits.
   * @defaultValue {}
   */
  include?: Readonly<Record<string, string>>;
}

export const METADATA_MAX_KEYS = 20;
export const METADATA_MAX_KEY_LENGTH = 64;
export const METADATA_MAX_VALUE_LENGTH = 500;

/** Metadata within every limit, from `{}` up to exactly-at-limit objects. */
export function validMetadata(constraints: ValidMetadataConstraints = {}): Arbitrary<Record<string, string>> {
  const maxKeys = constraints.maxKeys ?? METADATA_MAX_KEYS;
  const include = Object.entries(constraints.include ?? {});
  const exclude = [...(constraints.excludeKeys ?? RESERVED_METADATA_KEYS), ...include.map(([k]) => k)];
  if (!Number.isInteger(maxKeys) || maxKeys < include.length || maxKeys > METADATA_MAX_KEYS) {
    throw new RangeError(`maxKeys must be ${include.length}..${METADATA_MAX_KEYS}, got ${maxKeys}`);
  }
  for (const [k, v] of include) {
    if (k.length < 1 || k.length > METADATA_MAX_KEY_LENGTH || typeof v !== 'string' || v.length > METADATA_MAX_VALUE_LENGTH) {
      throw new RangeError(`include entry ${JSON.stringify(k)} is outside the metadata limits`);
    }
  }
  const free = maxKeys - include.length;
  const notExcluded = (k: string) => !exclude.includes(k);
  const key = trimmedPrintableAscii(1, METADATA_MAX_KEY_LENGTH).filter(notExcluded);
  const keyAtLimit = trimmedPrintableAscii(METADATA_MAX_KEY_LENGTH, METADATA_MAX_KEY_LENGTH).filter(notExcluded);
  const value = fc.oneof(
    { weight: 4, arbitrary: printableAscii(0, METADATA_MAX_VALUE_LENGTH) },
    { weight: 1, arbitrary: printableAscii(0, METADATA_MAX_VALUE_LENGTH, true) },
  );
  const valueAtLimit = printableAscii(METADATA_MAX_VALUE_LENGTH, METADATA_MAX_VALUE_LENGTH);
  const byKey = { selector: ([k]: readonly [string, string]) => k };

  // any number of keys, mostly short
  const general = fc.oneof(
    { weight: 3, arbitrary: fc.uniqueArray(fc.tuple(key, value), { maxLength: free, ...byKey }) },
    { weight: 1, arbitrary: fc.uniqueArray(fc.tuple(key, value), { maxLength: free, size: 'max', ...byKey }) },
  );
  // exactly maxKeys keys, each key and value either free or exactly at its limit
  const fullMixed = fc.uniqueArray(fc.tuple(fc.oneof(key, keyAtLimit), fc.oneof(value, valueAtLimit)), {
    minLength: free,
    maxLength: free,
    ...byKey,
  });
  // every limit reached at once: maxKeys keys of 64 characters, values of 500
  const allAtLimit = fc.uniqueArray(fc.tuple(keyAtLimit, valueAtLimit), {
    minLength: free,
    maxLength: free,
    ...byKey,
  });

  return fc
    .oneof({ weight: 6, arbitrary: general }, { weight: 2, arbitrary: fullMixed }, { weight: 1, arbitrary: allAtLimit })
    .map((entries) => entriesToObject([...entries, ...include]));
}
