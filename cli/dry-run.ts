/** `run --dry-run`: lists the selected rules (h2spec --dryrun), touching no target. */
import { countByLevel, selectRules } from '../catalogue/index.ts';
import { validateSelection } from '../harness/selection.ts';
import { levelOption } from './level-option.ts';
import { listOption, type Options } from './main.ts';

export async function dryRun(o: Options): Promise<number> {
  const areas = listOption(o, 'area');
  const rules = listOption(o, 'rule');
  validateSelection(areas, rules);
  const levels = levelOption(o);
  const selected = selectRules({ areas, rules }).filter((r) => !levels || levels.includes(r.level));
  let area = '';
  for (const r of selected) {
    if (r.area !== area) {
      area = r.area;
      console.log(`\n${area}`);
    }
    const tag = r.untestable ? ' (not exercisable through the API)' : r.needs?.length ? ` (needs ${r.needs.join(', ')})` : '';
    console.log(`  ${r.id.padEnd(36)} ${r.level.padEnd(7)} ${r.requirement}${tag}`);
  }
  const c = countByLevel(selected);
  console.log(`\n${selected.length} rules: ${c.MUST} MUST, ${c.SHOULD} SHOULD, ${c.OBSERVE} OBSERVE`);
  return 0;
}
