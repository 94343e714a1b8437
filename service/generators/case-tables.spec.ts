import { describe, expect, it } from 'vitest';
import { RULES } from '../../catalogue/index.ts';
import { CASE_TABLES, casesOfRule } from './case-tables.ts';

const KEY = 'pt_test_sk_Ab3dEf6hIj9kLm2nOp5qRs8t';
const OTHER = 'pt_test_sk_Zz9yXx8wVv7uTt6sRr5qPp4o';

describe('the fixed case tables', () => {
  it('belong to catalogued rules, with unique names per rule', () => {
    const ids = new Set(RULES.map((r) => r.id as string));
    expect(CASE_TABLES.filter((t) => !ids.has(t.rule))).toEqual([]);
    const names = CASE_TABLES.map((t) => `${t.rule}/${t.name}`);
    expect(new Set(names).size).toBe(names.length);
  });

  it('number each rule\'s rows from 1, titles unique within the rule, never carrying the key', () => {
    for (const rule of new Set(CASE_TABLES.map((t) => t.rule))) {
      const cases = casesOfRule(rule, { testKey: KEY });
      expect(cases.map((c) => c.n)).toEqual(cases.map((_, i) => i + 1));
      expect(new Set(cases.map((c) => c.title)).size, rule).toBe(cases.length);
      const secret = KEY.slice('pt_test_sk_'.length);
      expect(
        cases.filter((c) => c.title.includes(secret) || c.title.includes(Buffer.from(KEY).toString('base64').slice(0, 16))),
        rule,
      ).toEqual([]);
    }
  });

  it('the same titles whatever the key (so `run --dry-run --cases` lists what a run numbers)', () => {
    for (const rule of new Set(CASE_TABLES.map((t) => t.rule))) {
      expect(casesOfRule(rule, { testKey: OTHER }), rule).toEqual(casesOfRule(rule, { testKey: KEY }));
    }
  });

  it('a rule\'s tables chain by `after` within the rule, so each row has one number wherever it runs', () => {
    for (const table of CASE_TABLES) {
      if (table.after === undefined) continue;
      expect(table.after.rule, `${table.rule}/${table.name}`).toBe(table.rule);
      expect(CASE_TABLES, `${table.rule}/${table.name}: its after table is listed`).toContain(table.after);
    }
    const firsts = CASE_TABLES.filter((t) => t.after === undefined).map((t) => t.rule);
    expect(firsts.filter((r, i) => firsts.indexOf(r) !== i), 'one table numbered from 1 per rule').toEqual([]);
  });

  it('a rule without a table has no cases', () => {
    expect(casesOfRule('AUTH-CHECK-ORDER', { testKey: KEY })).toEqual([]);
  });
});
