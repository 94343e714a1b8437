/**
 * invalidMetadata: metadata objects the spec clearly rejects.
 *
 * Spec, Metadata: "An object with string keys and string values"; Limits: at most 20 keys, key at
 * most 64 characters, value at most 500 characters; Errors: `invalid_metadata` — "metadata exceeds
 * its limits". Each value breaks exactly one rule; everything else in it is within the limits and,
 * like validMetadata, printable ASCII (so a "character" is unambiguous):
 *
 *   CREATE-METADATA-TOO-MANY-KEYS   21..40 valid entries                      codes [invalid_metadata]
 *   CREATE-METADATA-KEY-TOO-LONG    one key of 65..300 characters             codes [invalid_metadata]
 *   CREATE-METADATA-VALUE-TOO-LONG  one value of 501..2000 characters         codes [invalid_metadata]
 *   CREATE-METADATA-NOT-STRINGS     one value a number, boolean, null,        codes [invalid_metadata,
 *                                   object or array                                  invalid_request]
 *
 * A non-string value is both "metadata invalid" and "body malformed", so either code is accepted
 * (DESIGN oracle principle 1). `null` counts as not a string: Metadata is "string keys and string
 * values" and the spec gives null no meaning there.
 *
 * `include` entries (a run marker) are added to every value and counted: the one-bad-entry rules
 * stay within 20 keys in total, so the marker never adds a second violation. No generated key is one
 * of the suite's marker keys (`conformance_run`, `sink`).
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { RESERVED_METADATA_KEYS } from './create-payment-request.ts';
import type { InvalidCase } from './invalid-case.ts';
import { printableAscii, show, trimmedPrintableAscii } from './internal/charsets.ts';
import { entriesToObject } from './internal/entries.ts';
import { has, reading, set, type FieldRules } from './internal/field-rule.ts';
import { METADATA_MAX_KEY_LENGTH, METADATA_MAX_KEYS, METADATA_MAX_VALUE_LENGTH } from './valid-metadata.ts';

export type MetadataRuleId =
  | 'CREATE-METADATA-TOO-MANY-KEYS'
  | 'CREATE-METADATA-KEY-TOO-LONG'
  | 'CREATE-METADATA-VALUE-TOO-LONG'
  | 'CREATE-METADATA-NOT-STRINGS';

export const METADATA_RULE_IDS: readonly MetadataRuleId[] = [
  'CREATE-METADATA-TOO-MANY-KEYS',
  'CREATE-METADATA-KEY-TOO-LONG',
  'CREATE-METADATA-VALUE-TOO-LONG',
  'CREATE-METADATA-NOT-STRINGS',
];

export interface InvalidMetadataConstraints {
  /** Which rules the values break. @defaultValue all four */
  breaks?: readonly MetadataRuleId[];
  /**
   * Entries every value carries (a run marker), within the limits, at most 19 of them.
   * @defaultValue {}
   */
  include?: Readonly<Record<string, string>>;
}

type Metadata = Record<string, unknown>;
type Entry = [string, unknown];

const byKey = { selector: ([k]: readonly [string, unknown]) => k };

function invalidCase(breaks: MetadataRuleId, value: Metadata, why: string): InvalidCase<Metadata> {
  const codes =
    breaks === 'CREATE-METADATA-NOT-STRINGS' ? (['invalid_metadata', 'invalid_request'] as const) : (['invalid_metadata'] as const);
  return { value, breaks, codes, why: `metadata ${why}` };
}

const nonString: Arbitrary<unknown> = fc.oneof(
  fc.integer({ min: -1000, max: 1_000_000 }),
  fc.constantFrom(10.5, 0, 1e21),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom<Record<string, unknown>[]>({}, { nested: 'x' }),
  fc.constantFrom<unknown[][]>([], ['x'], [1, 2]),
);

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** The entries every generated value carries (`include`), each within the metadata limits. */
function includedEntries(include: InvalidMetadataConstraints['include']): Entry[] {
  const entries: Entry[] = Object.entries(include ?? {});
  if (entries.length > METADATA_MAX_KEYS - 1) throw new RangeError('invalidMetadata: include has more than 19 entries');
  for (const [k, v] of entries) {
    if (k.length < 1 || k.length > METADATA_MAX_KEY_LENGTH || typeof v !== 'string' || v.length > METADATA_MAX_VALUE_LENGTH) {
      throw new RangeError(`include entry ${JSON.stringify(k)} is outside the metadata limits`);
    }
  }
  return entries;
}

/** Metadata breaking exactly one metadata rule. */
export function invalidMetadata(constraints: InvalidMetadataConstraints = {}): Arbitrary<InvalidCase<Metadata>> {
  const breaks = [...new Set(constraints.breaks ?? METADATA_RULE_IDS)];
  if (breaks.length === 0) throw new RangeError('invalidMetadata: breaks must name at least one rule');
  const include = includedEntries(constraints.include);
  const taken = [...RESERVED_METADATA_KEYS, ...include.map(([k]) => k)] as string[];
  const key = trimmedPrintableAscii(1, METADATA_MAX_KEY_LENGTH).filter((k) => !taken.includes(k));
  const value = printableAscii(0, 40);
  const room = METADATA_MAX_KEYS - include.length; // entries a one-bad-entry value may have, bad one included

  /** 1..room random entries, one of which (at index `at`) `spoil` makes bad. */
  const withOneBad = <T>(bad: Arbitrary<T>, spoil: (entry: Entry, bad: T) => Entry, why: (entry: Entry) => string, rule: MetadataRuleId) =>
    fc
      .tuple(fc.uniqueArray(fc.tuple(key, value), { minLength: 1, maxLength: room, ...byKey }), fc.nat(), bad)
      .map(([entries, n, b]) => {
        const at = n % entries.length;
        const out: Entry[] = entries.map(([k, v]) => [k, v]);
        out[at] = spoil(out[at]!, b);
        return invalidCase(rule, entriesToObject([...out, ...include]), why(out[at]!));
      });

  const byRule: Record<MetadataRuleId, Arbitrary<InvalidCase<Metadata>>> = {
    'CREATE-METADATA-TOO-MANY-KEYS': fc
      .uniqueArray(fc.tuple(key, value), {
        minLength: METADATA_MAX_KEYS + 1 - include.length,
        maxLength: 40 - include.length,
        ...byKey,
      })
      .map((entries) => {
        const all = [...entries, ...include];
        return invalidCase('CREATE-METADATA-TOO-MANY-KEYS', entriesToObject(all), `has ${all.length} keys (at most ${METADATA_MAX_KEYS})`);
      }),
    'CREATE-METADATA-KEY-TOO-LONG': withOneBad(
      fc.oneof(
        trimmedPrintableAscii(METADATA_MAX_KEY_LENGTH + 1, METADATA_MAX_KEY_LENGTH + 1),
        trimmedPrintableAscii(METADATA_MAX_KEY_LENGTH + 1, 300, true),
      ),
      ([, v], k) => [k, v],
      ([k]) => `key ${show(k, 30)} is ${k.length} characters (at most ${METADATA_MAX_KEY_LENGTH})`,
      'CREATE-METADATA-KEY-TOO-LONG',
    ),
    'CREATE-METADATA-VALUE-TOO-LONG': withOneBad(
      fc.oneof(
        printableAscii(METADATA_MAX_VALUE_LENGTH + 1, METADATA_MAX_VALUE_LENGTH + 1),
        printableAscii(METADATA_MAX_VALUE_LENGTH + 1, 2000, true),
      ),
      ([k], v) => [k, v],
      ([k, v]) => `value of key ${show(k, 30)} is ${(v as string).length} characters (at most ${METADATA_MAX_VALUE_LENGTH})`,
      'CREATE-METADATA-VALUE-TOO-LONG',
    ),
    'CREATE-METADATA-NOT-STRINGS': withOneBad(
      nonString,
      ([k], v) => [k, v],
      ([k, v]) => `value of key ${show(k, 30)} is ${kindOf(v)} (${show(v, 20)}), not a string`,
      'CREATE-METADATA-NOT-STRINGS',
    ),
  };
  return fc.oneof(...breaks.map((rule) => byRule[rule]));
}

/** The four metadata rules in a body (service/generators/internal/field-rule.ts); with a marker, the metadata keeps conformance_run. */
const metadataViolation = (rule: MetadataRuleId): FieldRules<MetadataRuleId>['violations'][MetadataRuleId] => (slots, marker) =>
  slots.includes('metadata')
    ? [invalidMetadata({ breaks: [rule], ...(marker ? { include: { conformance_run: marker.runId } } : {}) }).map(set('metadata'))]
    : [];

export const FIELD_RULES: FieldRules<MetadataRuleId> = {
  violations: {
    'CREATE-METADATA-TOO-MANY-KEYS': metadataViolation('CREATE-METADATA-TOO-MANY-KEYS'),
    'CREATE-METADATA-KEY-TOO-LONG': metadataViolation('CREATE-METADATA-KEY-TOO-LONG'),
    'CREATE-METADATA-VALUE-TOO-LONG': metadataViolation('CREATE-METADATA-VALUE-TOO-LONG'),
    'CREATE-METADATA-NOT-STRINGS': metadataViolation('CREATE-METADATA-NOT-STRINGS'),
  },
  // Limits: at most 20 keys, keys at most 64 characters, values strings of at most 500 (a metadata that is no object is a wrong type)
  oracle: (body) => {
    const m = body.metadata;
    if (!has(body, 'metadata') || m === null || typeof m !== 'object' || Array.isArray(m)) return {};
    const entries = Object.entries(m);
    const rules: string[] = [];
    if (entries.length > 20) rules.push('CREATE-METADATA-TOO-MANY-KEYS');
    if (entries.some(([k]) => k.length > 64)) rules.push('CREATE-METADATA-KEY-TOO-LONG');
    if (entries.some(([, v]) => typeof v === 'string' && v.length > 500)) rules.push('CREATE-METADATA-VALUE-TOO-LONG');
    if (entries.some(([, v]) => typeof v !== 'string')) rules.push('CREATE-METADATA-NOT-STRINGS');
    return reading('metadata', rules);
  },
};
