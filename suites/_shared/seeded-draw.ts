/**
 * Draws a suite makes outside `t.property` (a table of one case per family, a value of a given
 * length, a borderline case to observe). Their seed derives from the run seed, the rule id and a
 * label naming the draw, as service/harness/worker/rule-test.ts derives each property's (`<id>#<index>`), so
 * `--rule X --seed N` replays X's draws exactly, and two rules (or two draws of one rule) never
 * share a seed. test/architecture/seeded-draws.test.ts keeps every fc.sample of suites/ here.
 */
import fc from 'fast-check';
import { deriveSeed } from '../../core/run-context.ts';
import type { RuleContext } from '../../service/harness/worker/rule-test.ts';

/** The seed of the draw `label` of the running rule. */
export function drawSeed(t: Pick<RuleContext, 'seed' | 'rule'>, label: string): number {
  return deriveSeed(t.seed, `${t.rule.id}:${label}`);
}

/** `count` values of `arb`, reproducible from the rule's seed and `label`. */
export function sampleFor<T>(t: Pick<RuleContext, 'seed' | 'rule'>, label: string, arb: fc.Arbitrary<T>, count = 1): T[] {
  return fc.sample(arb, { seed: drawSeed(t, label), numRuns: count });
}
