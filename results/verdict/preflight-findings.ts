/**
 * The preflight's key contradictions judged (docs/rulings.md "A contradiction is judged"): each is
 * a FAIL of the rule that covers it, with the preflight's answer as evidence and "or the profile is
 * wrong: …" beside it; a rule its own tests already failed keeps its reason and gains the note. A
 * rule the selection left out is reported all the same: the evidence is in hand.
 */
import { getRule } from '../../catalogue/index.ts';
import type { KeyContradiction } from '../../core/key-contradiction.ts';
import type { RuleReport } from '../../catalogue/report/model.ts';
import { baseReport } from './collect.ts';

/** One line: the contradiction and the other reading. */
export function contradictionLine(c: KeyContradiction): string {
  return `preflight: ${c.message}; or the profile is wrong: ${c.profileWrong}`;
}

/** Judges each contradiction on its rule in `rules` (added at the end when the selection left it out). */
export function applyKeyContradictions(rules: RuleReport[], contradictions: readonly KeyContradiction[]): void {
  for (const c of contradictions) {
    let r = rules.find((x) => x.id === c.rule);
    if (!r) {
      r = baseReport(getRule(c.rule), []);
      rules.push(r);
    }
    r.evidence.unshift({ kind: 'mismatch', message: contradictionLine(c) });
    if (r.status !== 'fail') Object.assign(r, { status: 'fail', reason: contradictionLine(c) });
  }
}
