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
  validMetadata,
  type InvalidCase,
  type MetadataRuleId,
} from '../../service/generators/index.ts';
import { ruleTest, type RuleContext } from '../../service/harness/worker/rule-test.ts';
import { deepEqual } from '../../service/harness/worker/expect.ts';
import { create, expectCreated, expectRejected, fixedCase, Outcomes } from './support.ts';
import { batched, eachCase } from '../../service/harness/worker/batch.ts';
import { share } from '../../service/harness/worker/depth.ts';
import type { CaseTable } from '../../catalogue/case-table.ts';
import { KEY_TOO_LONG_CASES, METADATA_AT_LIMITS_CASES, metadataCodes, NOT_STRINGS_CASES, TOO_MANY_KEYS_CASES, VALUE_TOO_LONG_CASES, type MetadataRow } from '../../service/generators/cases/create-limits.ts';

type Metadata = Record<string, unknown>;

function bodyWith(t: RuleContext, metadata: unknown) {
  return { amount: '10.00', metadata, external_id: t.externalId('md') };
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
  await t.cases(METADATA_AT_LIMITS_CASES, (r) => check(r.build(t), `metadata with ${r.what}`));
  await batched(t, validMetadata({ include: marker(t) }), (m) => check(m, `metadata of ${Object.keys(m).length} keys`), share(t.runs, 0.25));
});

/** The body of a one-limit test: fixed cases just past the limit and far past it, then generated ones. */
function pastLimit(rule: MetadataRuleId, fixed: CaseTable<MetadataRow>, fraction: number): (t: RuleContext) => Promise<void> {
  return async (t) => {
    const codes = metadataCodes(rule);
    await t.cases(fixed, (r) => expectMetadataRejected(t, fixedCase(r.build(t), rule, codes, `metadata ${r.what}`)));
    await batched(t, invalidMetadata({ breaks: [rule], include: marker(t) }), (c) => expectMetadataRejected(t, c), share(t.runs, fraction));
  };
}

ruleTest('CREATE-METADATA-TOO-MANY-KEYS', pastLimit('CREATE-METADATA-TOO-MANY-KEYS', TOO_MANY_KEYS_CASES, 0.3));

ruleTest('CREATE-METADATA-KEY-TOO-LONG', pastLimit('CREATE-METADATA-KEY-TOO-LONG', KEY_TOO_LONG_CASES, 0.3));

ruleTest('CREATE-METADATA-VALUE-TOO-LONG', pastLimit('CREATE-METADATA-VALUE-TOO-LONG', VALUE_TOO_LONG_CASES, 0.3));

ruleTest('CREATE-METADATA-NOT-STRINGS', pastLimit('CREATE-METADATA-NOT-STRINGS', NOT_STRINGS_CASES, 0.3));

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
