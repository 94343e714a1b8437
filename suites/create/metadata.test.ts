/**
 * esid: Resources and their fields › Metadata — "An object with string keys and string values";
 * Limits — "metadata keys: at most 20", "metadata key length: at most 64 characters", "metadata
 * value length: at most 500 characters"; Errors — "invalid_metadata 400 metadata exceeds its limits".
 * Both sides of every limit: exactly 20 keys / 64-character keys / 500-character values are
 * accepted and echoed, one more is rejected. Every metadata object carries the run marker
 * (`conformance_run`), counted within the 20 keys. A length is counted in characters, not in an
 * encoding's units (docs/rulings.md): 64 "é" (128 UTF-8 bytes), 64 "ক" (192 bytes) and 64 "😀"
 * (128 UTF-16 units, 256 bytes) are 64 characters by every reading of the word, one code point and
 * one grapheme each, and are accepted at the limit. Where code points and graphemes disagree
 * (combining marks, joined emoji) and for odd keys, the outcome is only observed.
 */
import {
  borderlineMetadata,
  invalidMetadata,
  METADATA_MAX_KEY_LENGTH,
  METADATA_MAX_KEYS,
  METADATA_MAX_VALUE_LENGTH,
  validMetadata,
  type InvalidCase,
  type MetadataRuleId,
} from '../../generators/index.ts';
import { ruleTest, type RuleContext } from '../../runner/rule-test.ts';
import { deepEqual } from '../../runner/expect.ts';
import { create, eachCase, expectCreated, expectRejected, fixedCase, Outcomes, batched } from './support.ts';
import { share } from '../../runner/depth.ts';

type Metadata = Record<string, unknown>;

function bodyWith(t: RuleContext, metadata: unknown) {
  return { amount: '10.00', metadata, external_id: t.externalId('md') };
}

/** `n` entries (marker included) of keys `k<i>` padded to `keyLength`, values of `valueLength`. */
function entries(t: RuleContext, n: number, keyLength = 8, valueLength = 8): Metadata {
  const out: Metadata = t.metadata();
  for (let i = 0; Object.keys(out).length < n; i++) {
    const key = `k${i}_`.padEnd(keyLength, String.fromCharCode(97 + (i % 26)));
    out[key] = `v${i}`.padEnd(valueLength, '.');
  }
  return out;
}

/** The marker plus one entry. */
function withEntry(t: RuleContext, key: string, value: unknown): Metadata {
  return { ...t.metadata(), [key]: value };
}

async function expectMetadataRejected(t: RuleContext, c: InvalidCase<Metadata>): Promise<void> {
  expectRejected(await create(t, bodyWith(t, c.value)), c);
}

const marker = (t: RuleContext) => ({ conformance_run: t.runId });

ruleTest('CREATE-METADATA-AT-LIMITS', async (t) => {
  const check = async (metadata: Metadata, what: string) => {
    const body = bodyWith(t, metadata);
    expectCreated(await create(t, body), body, what);
  };
  const key64 = 'K'.repeat(METADATA_MAX_KEY_LENGTH - 4) + '_end';
  const fixed: Array<[Metadata, string]> = [
    [entries(t, METADATA_MAX_KEYS), 'exactly 20 keys'],
    [withEntry(t, key64, 'v'), 'a key of exactly 64 characters'],
    [withEntry(t, 'note', 'x'.repeat(METADATA_MAX_VALUE_LENGTH - 1) + 'z'), 'a value of exactly 500 characters'],
    [withEntry(t, 'empty', ''), 'an empty value'],
    // Characters, not encoding units: each is one code point and one grapheme, 2 to 4 UTF-8 bytes.
    [withEntry(t, 'é'.repeat(METADATA_MAX_KEY_LENGTH), 'v'), 'a key of 64 "é" (128 UTF-8 bytes)'],
    [withEntry(t, 'ক'.repeat(METADATA_MAX_KEY_LENGTH), 'v'), 'a key of 64 Bengali "ক" (192 UTF-8 bytes)'],
    [withEntry(t, '😀'.repeat(METADATA_MAX_KEY_LENGTH), 'v'), 'a key of 64 emoji (128 UTF-16 units)'],
    [withEntry(t, 'note', 'é'.repeat(METADATA_MAX_VALUE_LENGTH)), 'a value of 500 "é" (1000 UTF-8 bytes)'],
    [withEntry(t, 'note', '😀'.repeat(METADATA_MAX_VALUE_LENGTH)), 'a value of 500 emoji (1000 UTF-16 units)'],
    [entries(t, METADATA_MAX_KEYS, METADATA_MAX_KEY_LENGTH, METADATA_MAX_VALUE_LENGTH), '20 keys, each other than the marker 64 characters long with a 500-character value'],
  ];
  await eachCase(fixed, ([m, what]) => check(m, `metadata with ${what}`));
  await batched(t, validMetadata({ include: marker(t) }), (m) => check(m, `metadata of ${Object.keys(m).length} keys`), share(t.runs, 0.25));
});

/** The body of a one-limit test: fixed cases just past the limit and far past it, then generated ones. */
function pastLimit(rule: MetadataRuleId, fixed: (t: RuleContext) => Array<[Metadata, string]>, fraction: number): (t: RuleContext) => Promise<void> {
  return async (t) => {
    const codes = rule === 'CREATE-METADATA-NOT-STRINGS' ? (['invalid_metadata', 'invalid_request'] as const) : (['invalid_metadata'] as const);
    await eachCase(fixed(t), ([m, why]) => expectMetadataRejected(t, fixedCase(m, rule, codes, `metadata ${why}`)));
    await batched(t, invalidMetadata({ breaks: [rule], include: marker(t) }), (c) => expectMetadataRejected(t, c), share(t.runs, fraction));
  };
}

ruleTest('CREATE-METADATA-TOO-MANY-KEYS', pastLimit('CREATE-METADATA-TOO-MANY-KEYS', (t) => [
  [entries(t, METADATA_MAX_KEYS + 1), 'has 21 keys'],
  [entries(t, 25), 'has 25 keys'],
  [entries(t, 100), 'has 100 keys'],
  [entries(t, METADATA_MAX_KEYS + 1, 2, 1), 'has 21 keys, all short'],
], 0.3));

ruleTest('CREATE-METADATA-KEY-TOO-LONG', pastLimit('CREATE-METADATA-KEY-TOO-LONG', (t) => [
  [withEntry(t, 'K'.repeat(METADATA_MAX_KEY_LENGTH) + 'x', 'v'), 'has a 65-character key'],
  [withEntry(t, 'k'.repeat(100), 'v'), 'has a 100-character key'],
  [withEntry(t, 'long_key_'.repeat(112), 'v'), 'has a 1008-character key'],
  [entries(t, 5, METADATA_MAX_KEY_LENGTH + 1), 'has four 65-character keys'],
], 0.3));

ruleTest('CREATE-METADATA-VALUE-TOO-LONG', pastLimit('CREATE-METADATA-VALUE-TOO-LONG', (t) => [
  [withEntry(t, 'note', 'x'.repeat(METADATA_MAX_VALUE_LENGTH) + 'y'), 'has a 501-character value'],
  [withEntry(t, 'note', 'y'.repeat(1000)), 'has a 1000-character value'],
  [withEntry(t, 'note', 'z'.repeat(10_000)), 'has a 10000-character value'],
  [entries(t, METADATA_MAX_KEYS, 8, METADATA_MAX_VALUE_LENGTH + 1), 'has 19 values of 501 characters'],
], 0.3));

ruleTest('CREATE-METADATA-NOT-STRINGS', pastLimit('CREATE-METADATA-NOT-STRINGS', (t) => [
  [withEntry(t, 'count', 3), 'has a number value'],
  [withEntry(t, 'zero', 0), 'has the number 0 as a value'],
  [withEntry(t, 'paid', true), 'has a boolean value'],
  [withEntry(t, 'none', null), 'has a null value'],
  [withEntry(t, 'nested', { a: 'b' }), 'has an object value'],
  [withEntry(t, 'list', ['a']), 'has an array value'],
], 0.3));

ruleTest('CREATE-METADATA-BORDERLINE', async (t) => {
  const outcomes = new Outcomes();
  const observeOne = async (c: { value: Record<string, string>; why: string }) => {
    const metadata = { ...c.value, ...t.metadata() };
    const res = await create(t, bodyWith(t, metadata));
    const extra = res.status === 201 ? { echoed: deepEqual(res.json?.metadata, metadata) } : {};
    outcomes.add(c, res, extra);
  };
  const fixed: Array<{ value: Record<string, string>; why: string }> = [
    // Code points and graphemes disagree here: the spec's "characters" leaves these open.
    { value: { ['e\u0301'.repeat(64)]: 'v' }, why: 'key of 64 "e" + combining acute (64 graphemes, 128 code points)' },
    { value: { ['👩\u200d💻'.repeat(22)]: 'v' }, why: 'key of 22 joined emoji (22 graphemes, 66 code points)' },
    { value: { k: 'e\u0301'.repeat(500) }, why: 'value of 500 "e" + combining acute (500 graphemes, 1000 code points)' },
    { value: { '': 'v' }, why: 'an empty key' },
    { value: { ' ': 'v' }, why: 'a blank key' },
  ];
  await eachCase(fixed, observeOne);
  await batched(t, borderlineMetadata(), observeOne, share(t.runs, 0.2));
  outcomes.record(t);
});
