/**
 * The create area's fixed tables of limits (catalogue/case-table.ts): metadata at and past each of
 * its limits, and the lengths every *-TOO-LONG-CODE rule sends before random ones. Every metadata
 * object carries the run's marker (counted within the 20 keys), built when the row runs.
 */
import type { CaseTable } from '../../../catalogue/case-table.ts';
import type { ErrorCode } from '../../../catalogue/error-codes.ts';
import type { RuleId } from '../../../catalogue/rules.ts';
import { METADATA_MAX_KEY_LENGTH, METADATA_MAX_KEYS, METADATA_MAX_VALUE_LENGTH } from '../valid-metadata.ts';
import type { Marks } from './create.ts';

type Metadata = Record<string, unknown>;

/** `n` entries (marker included) of keys `k<i>` padded to `keyLength`, values of `valueLength`. */
function entries(m: Marks, n: number, keyLength = 8, valueLength = 8): Metadata {
  const out: Metadata = m.metadata();
  for (let i = 0; Object.keys(out).length < n; i++) {
    const key = `k${i}_`.padEnd(keyLength, String.fromCharCode(97 + (i % 26)));
    out[key] = `v${i}`.padEnd(valueLength, '.');
  }
  return out;
}

/** The marker plus one entry. */
function withEntry(m: Marks, key: string, value: unknown): Metadata {
  return { ...m.metadata(), [key]: value };
}

/** A metadata object, said in words, built from the run's marks. */
export interface MetadataRow {
  readonly what: string;
  build(m: Marks): Metadata;
}

const md = (what: string, build: (m: Marks) => Metadata): MetadataRow => ({ what, build });
const key64 = 'K'.repeat(METADATA_MAX_KEY_LENGTH - 4) + '_end';

/** CREATE-METADATA-AT-LIMITS: exactly at each limit, in characters (not encoding units). */
export const METADATA_AT_LIMITS_CASES: CaseTable<MetadataRow> = {
  rule: 'CREATE-METADATA-AT-LIMITS',
  name: 'metadata at each limit',
  rows: () => [
    // The lower edge: the run marker is the harness's bookkeeping and would hide it (docs/rulings.md, "The harness's own
    // bookkeeping"): these two carry none; the Payment is still the run's by its external_id prefix.
    md('no entry at all, {} (the lower edge: no run marker)', () => ({})),
    md('one 1-character key with an empty value (no run marker)', () => ({ k: '' })),
    md('exactly 20 keys', (m) => entries(m, METADATA_MAX_KEYS)),
    md('a key of exactly 64 characters', (m) => withEntry(m, key64, 'v')),
    md('a value of exactly 500 characters', (m) => withEntry(m, 'note', 'x'.repeat(METADATA_MAX_VALUE_LENGTH - 1) + 'z')),
    md('an empty value', (m) => withEntry(m, 'empty', '')),
    md('a key of 64 "é" (128 UTF-8 bytes)', (m) => withEntry(m, 'é'.repeat(METADATA_MAX_KEY_LENGTH), 'v')),
    md('a key of 64 Bengali "ক" (192 UTF-8 bytes)', (m) => withEntry(m, 'ক'.repeat(METADATA_MAX_KEY_LENGTH), 'v')),
    md('a key of 64 emoji (128 UTF-16 units)', (m) => withEntry(m, '😀'.repeat(METADATA_MAX_KEY_LENGTH), 'v')),
    md('a value of 500 "é" (1000 UTF-8 bytes)', (m) => withEntry(m, 'note', 'é'.repeat(METADATA_MAX_VALUE_LENGTH))),
    md('a value of 500 emoji (1000 UTF-16 units)', (m) => withEntry(m, 'note', '😀'.repeat(METADATA_MAX_VALUE_LENGTH))),
    md(
      '20 keys, each other than the marker 64 characters long with a 500-character value',
      (m) => entries(m, METADATA_MAX_KEYS, METADATA_MAX_KEY_LENGTH, METADATA_MAX_VALUE_LENGTH),
    ),
  ],
  title: (r) => `metadata with ${r.what} is accepted (201) and echoed`,
};

type PastLimitRule = 'CREATE-METADATA-TOO-MANY-KEYS' | 'CREATE-METADATA-KEY-TOO-LONG' | 'CREATE-METADATA-VALUE-TOO-LONG' | 'CREATE-METADATA-NOT-STRINGS';

/** The codes a refusal of `rule`'s metadata may carry. */
export function metadataCodes(rule: string): readonly ErrorCode[] {
  return rule === 'CREATE-METADATA-NOT-STRINGS' ? ['invalid_metadata', 'invalid_request'] : ['invalid_metadata'];
}

function pastLimit(rule: PastLimitRule, name: string, rows: MetadataRow[]): CaseTable<MetadataRow> {
  return { rule, name, rows: () => rows, title: (r) => `metadata that ${r.what} is rejected with 400 ${metadataCodes(rule).join(' or ')}` };
}

export const TOO_MANY_KEYS_CASES = pastLimit('CREATE-METADATA-TOO-MANY-KEYS', 'more than 20 keys', [
  md('has 21 keys', (m) => entries(m, METADATA_MAX_KEYS + 1)),
  md('has 25 keys', (m) => entries(m, 25)),
  md('has 100 keys', (m) => entries(m, 100)),
  md('has 21 keys, all short', (m) => entries(m, METADATA_MAX_KEYS + 1, 2, 1)),
]);

export const KEY_TOO_LONG_CASES = pastLimit('CREATE-METADATA-KEY-TOO-LONG', 'keys over 64 characters', [
  md('has a 65-character key', (m) => withEntry(m, 'K'.repeat(METADATA_MAX_KEY_LENGTH) + 'x', 'v')),
  md('has a 100-character key', (m) => withEntry(m, 'k'.repeat(100), 'v')),
  md('has a 1008-character key', (m) => withEntry(m, 'long_key_'.repeat(112), 'v')),
  md('has four 65-character keys', (m) => entries(m, 5, METADATA_MAX_KEY_LENGTH + 1)),
]);

export const VALUE_TOO_LONG_CASES = pastLimit('CREATE-METADATA-VALUE-TOO-LONG', 'values over 500 characters', [
  md('has a 501-character value', (m) => withEntry(m, 'note', 'x'.repeat(METADATA_MAX_VALUE_LENGTH) + 'y')),
  md('has a 1000-character value', (m) => withEntry(m, 'note', 'y'.repeat(1000))),
  md('has a 10000-character value', (m) => withEntry(m, 'note', 'z'.repeat(10_000))),
  md('has 19 values of 501 characters', (m) => entries(m, METADATA_MAX_KEYS, 8, METADATA_MAX_VALUE_LENGTH + 1)),
]);

export const NOT_STRINGS_CASES = pastLimit('CREATE-METADATA-NOT-STRINGS', 'values that are not strings', [
  md('has a number value', (m) => withEntry(m, 'count', 3)),
  md('has the number 0 as a value', (m) => withEntry(m, 'zero', 0)),
  md('has a boolean value', (m) => withEntry(m, 'paid', true)),
  md('has a null value', (m) => withEntry(m, 'none', null)),
  md('has an object value', (m) => withEntry(m, 'nested', { a: 'b' })),
  md('has an array value', (m) => withEntry(m, 'list', ['a'])),
]);

// ── lengths of description, merchant_reference, external_id ──

type LengthField = 'description' | 'merchant_reference' | 'external_id';

const OWN_CODE: Record<LengthField, ErrorCode> = {
  description: 'description_too_long',
  merchant_reference: 'reference_too_long',
  external_id: 'invalid_external_id',
};

/** The longest value any *-TOO-LONG-CODE rule sends. */
export const LENGTH_CEILING = 65_536;

function lengths(rule: RuleId, field: LengthField): CaseTable<number> {
  // external_id stays long enough to carry the marker and a unique part (a short one could
  // collide with another Payment and draw a legitimate 409 external_id_conflict).
  const min = field === 'external_id' ? 48 : 1;
  return {
    rule,
    name: `${field} lengths`,
    // Common column sizes on both sides, then well past any plausible limit.
    rows: () => [min, 64, 255, 256, 1000, 1001, 1024, 4096, 16_384, LENGTH_CEILING],
    title: (n) => `${field} of ${n} characters is accepted and echoed exactly, or refused with 400 ${OWN_CODE[field]}`,
  };
}

export const DESCRIPTION_LENGTH_CASES = lengths('CREATE-DESCRIPTION-TOO-LONG-CODE', 'description');
export const REFERENCE_LENGTH_CASES = lengths('CREATE-REFERENCE-TOO-LONG-CODE', 'merchant_reference');
export const EXTERNAL_ID_LENGTH_CASES = lengths('CREATE-EXTERNAL-ID-TOO-LONG-CODE', 'external_id');

export const CREATE_CASE_TABLES_B: ReadonlyArray<CaseTable<any>> = [
  METADATA_AT_LIMITS_CASES, TOO_MANY_KEYS_CASES, KEY_TOO_LONG_CASES, VALUE_TOO_LONG_CASES, NOT_STRINGS_CASES,
  DESCRIPTION_LENGTH_CASES, REFERENCE_LENGTH_CASES, EXTERNAL_ID_LENGTH_CASES,
];
