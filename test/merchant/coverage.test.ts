/** Every merchant-side MUST and SHOULD rule that can be tested is declared by a planted receiver or client fault. */
import { describe, expect, it } from 'vitest';
import { rulesOfSide } from '../../catalogue/index.ts';
import { CLIENT_FAULTS } from '../../merchant/client/faults.ts';
import { RECEIVER_FAULTS } from '../../merchant/receiver/faults.ts';

describe('merchant-side planted faults', () => {
  for (const [side, faults] of [['receiver', RECEIVER_FAULTS], ['client', CLIENT_FAULTS]] as const) {
    it(`declare every testable ${side} MUST and SHOULD rule, and no OBSERVE one`, () => {
      const declared = new Set<string>(Object.values(faults).flatMap((f) => [...f.breaks]));
      const rules = rulesOfSide(side);
      expect(rules.filter((r) => r.level !== 'OBSERVE' && !r.untestable && !declared.has(r.id)).map((r) => r.id)).toEqual([]);
      expect(rules.filter((r) => r.level === 'OBSERVE' && declared.has(r.id)).map((r) => r.id)).toEqual([]);
    });
  }
});
