import { AREAS, currentRuleId, type RuleId } from '../../../catalogue/index.ts';
import { HarnessError } from '../../../core/errors.ts';

/**
 * --area and --rule name catalogued areas and rules, or the run stops with exit 2. Returns the
 * rules by their current ids: an id a rule had before a rename (`formerly`, as older reports and
 * replay lines print it) selects that rule, and `renamed` says so.
 */
export function validateSelection(areas: readonly string[], rules: readonly string[]): { rules: RuleId[]; renamed: string[] } {
  for (const a of areas) {
    if (!(AREAS as readonly string[]).includes(a)) throw new HarnessError(
      'HPS_ERR_USAGE',
      `--area ${a}: unknown area (one of ${AREAS.join(', ')})`,
    );
  }
  const renamed: string[] = [];
  const ids = rules.map((r) => {
    const id = currentRuleId(r);
    if (id === undefined) throw new HarnessError('HPS_ERR_USAGE', `--rule ${r}: unknown rule id (see hps-conformance run --dry-run)`);
    if (id !== r) renamed.push(`--rule ${r}: renamed ${id}, selected under its current id`);
    return id;
  });
  return { rules: [...new Set(ids)], renamed };
}
