/**
 * A selection runs the rule files that state its rules by hand, and every file of an area one of
 * whose selected rules is made from a table (service/harness/main/suite-files.ts).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getRule, RULES, type RuleId } from '../../catalogue/index.ts';
import { ruleFilesFor } from '../../service/harness/main/suite-files.ts';
import { derivedFieldRules } from '../../suites/create/field-rules.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const names = (s: Set<string>) => [...s].map((f) => f.slice(ROOT.length + 1)).sort();
const rules = (...ids: string[]) => ids.map((id) => getRule(id as RuleId));

describe('rule files for a selection', () => {
  it('one rule stated by hand: its file only', () => {
    expect(names(ruleFilesFor(rules('AUTH-MISSING-KEY')))).toEqual(['suites/auth/missing-key.rules.ts']);
    expect(names(ruleFilesFor(rules('HOOK-MAX-ATTEMPTS')))).toEqual(['suites/webhooks/retries.rules.ts']);
  });

  it('a rule no file states by hand (made from a table, or without a test): every file of its area', () => {
    // The create field rules made from a table are those no file states by hand (none today).
    expect(derivedFieldRules()).toEqual([]);
    const all = readdirSync(join(ROOT, 'suites', 'idempotency'))
      .filter((n) => n.endsWith('.rules.ts'))
      .map((n) => `suites/idempotency/${n}`);
    expect(all.length).toBeGreaterThan(1);
    const files = names(ruleFilesFor(rules('IDEM-RETENTION-24H', 'AUTH-MISSING-KEY')));
    expect(files).toEqual([...all, 'suites/auth/missing-key.rules.ts'].sort());
  });

  it('every rule: every rule file', () => {
    const every = readdirSync(join(ROOT, 'suites'), { recursive: true, encoding: 'utf8' })
      .filter((n) => n.endsWith('.rules.ts'));
    expect(ruleFilesFor(RULES.filter((r) => !('side' in r))).size).toBe(every.length);
  });
});
