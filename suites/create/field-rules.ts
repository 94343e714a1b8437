/**
 * The derived test of a single-field createPayment rule (`invalidInput: 'field'` in the catalogue)
 * that has no test written by hand in this folder: a new rule registered in its generator file's
 * `FIELD_RULES` (service/generators/internal/field-violation.ts) is tested without a suite edit.
 *
 * esid: Errors — each field code "400 <field> invalid"; Resources and their fields ›
 * CreatePaymentRequest. The test sends the rule's fixed violations (its file's `FIELD_RULES.edges`,
 * a titled case each, on every seed), then drawn ones (invalidCreateRequest, one field broken in an
 * otherwise valid, marked body), and each must be refused 400 with one of the case's own codes.
 *
 * A rule stated by hand (`ruleTest('<ID>', …)` with its id written out in a rule file of this
 * folder) keeps its own test and gets none here; test/catalogue.test.ts reads the same list.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fieldRuleEdgeTable, invalidCreateRequest, SINGLE_FIELD_RULE_IDS, slotsBrokenBy, type SingleFieldRuleId } from '../../service/generators/index.ts';
import { share } from '../../service/harness/worker/depth.ts';
import { ruleTest, type RuleContext } from '../../service/harness/worker/rule-test.ts';
import { create, expectRejected, fresh, marker, type Body } from './support.ts';
import { batched } from '../../service/harness/worker/batch.ts';

/** The rule ids this folder's rule files state by hand: `ruleTest('<ID>'` with the id as a literal. */
export function rulesStatedByHand(dir: string = import.meta.dirname): Set<string> {
  const files = readdirSync(dir).filter((n) => n.endsWith('.rules.ts'));
  return new Set(files.flatMap((n) => [...readFileSync(join(dir, n), 'utf8').matchAll(/ruleTest\(\s*'([^']+)'/g)].map((m) => m[1]!)));
}

/** The single-field rules whose test is derived here (those not stated by hand), in catalogue order. */
export function derivedFieldRules(dir?: string): SingleFieldRuleId[] {
  const byHand = rulesStatedByHand(dir);
  return SINGLE_FIELD_RULE_IDS.filter((id) => !byHand.has(id));
}

/** The fixed violations, then about 40% of --runs drawn ones, each refused with one of its codes. */
function fieldRuleTest(rule: SingleFieldRuleId): (t: RuleContext) => Promise<void> {
  return async (t) => {
    const table = fieldRuleEdgeTable(rule);
    if (table) {
      await t.cases(table, async (v) => {
        const body: Body = { amount: '10.00', external_id: t.externalId('field'), metadata: t.metadata() };
        if (v.remove) delete body[v.slot];
        else body[v.slot] = v.value;
        expectRejected(await create(t, body), v.case);
      });
    }
    // A fresh external_id per request (a replayed one could meet 409), unless external_id is what the rule breaks.
    const keepExternalId = slotsBrokenBy(rule).includes('external_id');
    await batched(t, invalidCreateRequest({ breaks: [rule], marker: marker(t) }), async (c) => {
      expectRejected(await create(t, keepExternalId ? c.value : fresh(t, c.value, 'field')), c);
    }, share(t.runs, 0.4));
  };
}

/** Registers the derived test of every single-field rule without one written by hand. */
export function deriveFieldRuleTests(): void {
  for (const rule of derivedFieldRules()) ruleTest(rule, fieldRuleTest(rule));
}
