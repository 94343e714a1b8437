/**
 * The properties every registered single-field rule (`FIELD_RULES` of its generator file, gathered
 * by internal/field-violation.ts) must have, checked rule by rule, so a new generator that only
 * contributes FIELD_RULES needs no spec file of its own: wherever it can be broken, each drawn
 * violation (and each fixed one, `edges`) names the rule, gives at least one 400 code and a
 * one-line why, and placed in a valid body is read by the oracle (the files' readings, written
 * from the spec) as that rule broken in that slot and nothing else; the same seed draws the same
 * violations, and more than one (but for a removal, such as amount missing); given the run's marker,
 * an external_id it sets carries it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SINGLE_FIELD_RULE_IDS, type SingleFieldRuleId } from './invalid-case.ts';
import { bodyViolations } from './internal/body-oracle.ts';
import { applyViolations, edgesOf, SLOTS, violationsOf, type FieldViolation } from './internal/field-violation.ts';

/** A valid, marked body the violation is placed in. */
const VALID = { amount: '10.00', external_id: 'run-1-field', metadata: { conformance_run: 'run-1' } };

/** What is wrong with one violation of `rule`, as read by the oracle (empty: nothing). */
function problems(rule: SingleFieldRuleId, v: FieldViolation): string[] {
  const out: string[] = [];
  if (v.case.breaks !== rule) out.push(`names ${v.case.breaks}`);
  if (v.case.codes.length === 0) out.push('no code');
  if (!/^[^\n\r]+$/.test(v.case.why)) out.push(`why ${JSON.stringify(v.case.why)} is not one line`);
  const read = bodyViolations(applyViolations(VALID, [v]));
  if (Object.keys(read).join() !== v.slot || !read[v.slot]!.includes(rule)) out.push(`the oracle reads ${JSON.stringify(read)}`);
  return out.map((p) => `${rule} in ${v.slot} (${JSON.stringify(v.value)?.slice(0, 60)}): ${p}`);
}

describe('every registered single-field rule (FIELD_RULES)', () => {
  it('can be broken in at least one slot', () => {
    expect(SINGLE_FIELD_RULE_IDS.filter((rule) => violationsOf(rule, SLOTS).length === 0)).toEqual([]);
  });

  it('draws violations the oracle reads as that rule in that slot alone, named, coded and explained', () => {
    const found = SINGLE_FIELD_RULE_IDS.flatMap((rule) =>
      violationsOf(rule, SLOTS).flatMap((arb) => fc.sample(arb, { seed: 7, numRuns: 40 }).flatMap((v) => problems(rule, v))),
    );
    expect(found).toEqual([]);
  });

  it('has fixed violations (edges), where declared, that read the same way', () => {
    expect(SINGLE_FIELD_RULE_IDS.flatMap((rule) => edgesOf(rule).flatMap((v) => problems(rule, v)))).toEqual([]);
  });

  it('draws the same violations for the same seed, and more than one value', () => {
    for (const rule of SINGLE_FIELD_RULE_IDS) {
      for (const arb of violationsOf(rule, SLOTS, { runId: 'r' })) {
        const a = fc.sample(arb, { seed: 42, numRuns: 20 });
        expect(fc.sample(arb, { seed: 42, numRuns: 20 }), rule).toEqual(a);
        // A removal (amount missing) is one violation; a value is drawn from more than one.
        if (a.some((v) => !v.remove)) expect(new Set(a.map((v) => JSON.stringify(v.value))).size, rule).toBeGreaterThan(1);
      }
    }
  });

  it('keeps the run marker: a string external_id it sets starts with it (the run finds and cleans up what it created)', () => {
    const unmarked = SINGLE_FIELD_RULE_IDS.flatMap((rule) =>
      violationsOf(rule, SLOTS, { runId: 'm1' }).flatMap((arb) =>
        fc.sample(arb, { seed: 9, numRuns: 40 }).filter((v) => v.slot === 'external_id' && !v.remove && typeof v.value === 'string' && !v.value.startsWith('m1-')).map((v) => `${rule}: ${JSON.stringify(v.value)}`),
      ),
    );
    expect(unmarked).toEqual([]);
  });

  it('the checks above can fail: a violation naming another rule, or read in another slot', () => {
    const [v] = fc.sample(violationsOf('CREATE-AMOUNT-INVALID', ['amount'])[0]!, { seed: 1, numRuns: 1 });
    expect(problems('CREATE-AMOUNT-INVALID', v!)).toEqual([]);
    expect(problems('CREATE-AMOUNT-INVALID', { ...v!, case: { ...v!.case, breaks: 'CREATE-WRONG-TYPE' } })).toHaveLength(1);
    expect(problems('CREATE-AMOUNT-INVALID', { ...v!, slot: 'description' })).toHaveLength(1);
    expect(problems('CREATE-AMOUNT-INVALID', { ...v!, value: '10.00' })).toHaveLength(1);
  });
});
