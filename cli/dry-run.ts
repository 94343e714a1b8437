/**
 * `run --dry-run`: lists the selected rules (h2spec --dryrun), touching no target. Merchant-side
 * rules are listed after the service's, under the command that exercises them.
 */
import { countByLevel, RULES, selectRules, sideOf, SIDE_COMMAND, type Rule } from '../catalogue/index.ts';
import { validateSelection } from '../service/harness/main/selection.ts';
import { levelOption } from './level-option.ts';
import { listOption, type Options } from './options.ts';
import { checkRunFlags } from './run-flags.ts';
import { checkDryRunInputs } from './run-inputs.ts';
import { inertLine } from '../core/inert.ts';

export async function dryRun(o: Options): Promise<number> {
  const areas = listOption(o, 'area');
  const { rules, renamed } = validateSelection(areas, listOption(o, 'rule'));
  for (const line of renamed) console.error(`hps-conformance: ${line}`);
  checkRunFlags(o); // what `run` would refuse, a dry run refuses too
  // Every input given is read and checked as `run` would (profile, keys, TLS files, report directory); no target is contacted.
  const checked = checkDryRunInputs(o);
  const levels = levelOption(o);
  const selected = selectRules({ areas, rules }).filter((r) => !levels || levels.includes(r.level));
  if (o.case !== undefined || o.cases) {
    // Only then: the case tables load the generators and fast-check (~60 modules).
    const { caseOption, printCases } = await import('./cases.ts');
    caseOption(o.case, rules);
    if (o.cases) return printCases(selected);
  }
  if (o.clauses) return printClauses(
    areas.length + rules.length > 0 || levels ? new Set(selected.map((r) => r.id)) : undefined,
    o.json === true,
  );
  printRules(selected);
  const c = countByLevel(selected);
  console.log(`\n${selected.length} rules: ${c.MUST} MUST, ${c.SHOULD} SHOULD, ${c.OBSERVE} OBSERVE`);
  const merchant = (RULES as readonly Rule[]).filter((r) => sideOf(r) && (areas.length === 0 || areas.includes(r.area)) && (rules.length === 0 || rules.includes(r.id)));
  for (const side of ['receiver', 'client'] as const) {
    const mine = merchant.filter((r) => sideOf(r) === side);
    if (mine.length === 0) continue;
    console.log(`\n── merchant side, exercised by \`${SIDE_COMMAND[side]}\` (not by run) ──`);
    printRules(mine);
    const m = countByLevel(mine);
    console.log(`\n${mine.length} rules: ${m.MUST} MUST, ${m.SHOULD} SHOULD, ${m.OBSERVE} OBSERVE`);
  }
  console.log(`\n${inertLine(`checked as run would: ${checked.join(', ')}; no request was sent`)}`);
  return 0;
}

/**
 * `--dry-run --clauses`: the spec clause by clause, each normative clause's obligations and how
 * each stands (proved by a planted fault of its own, untestable, named only); `--json`, the same
 * as one JSON document. A selection keeps the clauses its rules cite.
 */
async function printClauses(selected: ReadonlySet<string> | undefined, json: boolean): Promise<number> {
  const { clauseMatrix, formatObligationMatrix, obligationMatrix, obligationMatrixJson } = await import('./clause-matrix.ts');
  const clauses = clauseMatrix().filter((row) => !selected || row.rules.some((r) => selected.has(r.rule.id)));
  const kept = new Set(clauses.map((c) => c.clause.id as string));
  const rows = obligationMatrix().filter((r) => kept.has(r.obligation.clause));
  if (json) console.log(JSON.stringify(obligationMatrixJson(clauses, rows), null, 2));
  else for (const line of formatObligationMatrix(clauses, rows)) console.log(line);
  return 0;
}

function printRules(list: readonly Rule[]): void {
  let area = '';
  for (const r of list) {
    if (r.area !== area) {
      area = r.area;
      console.log(`\n${area}`);
    }
    const tag = r.untestable ? ' (not exercisable through the API)' : r.needs?.length ? ` (needs ${r.needs.join(', ')})` : '';
    console.log(`  ${r.id.padEnd(36)} ${r.level.padEnd(7)} ${r.requirement}${tag}`);
  }
}
