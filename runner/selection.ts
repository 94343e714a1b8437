import { AREAS, isRuleId } from '../catalogue/index.ts';
import { HarnessError } from '../core/errors.ts';

/** --area and --rule name catalogued areas and rules, or the run stops with exit 2. */
export function validateSelection(areas: readonly string[], rules: readonly string[]): void {
  for (const a of areas) {
    if (!(AREAS as readonly string[]).includes(a)) throw new HarnessError('HPS_ERR_USAGE', `--area ${a}: unknown area (one of ${AREAS.join(', ')})`);
  }
  for (const r of rules) if (!isRuleId(r)) throw new HarnessError('HPS_ERR_USAGE', `--rule ${r}: unknown rule id (see hps-conformance run --dry-run)`);
}
