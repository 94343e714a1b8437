/**
 * The fixed cases on the command line: `run --rule ID --case N|TITLE` (checked against the rule's
 * tables before anything runs) and `run --dry-run --cases` (every selected rule's numbered cases).
 */
import type { Rule } from '../catalogue/index.ts';
import { caseMatches, type CaseEnv } from '../catalogue/case-table.ts';
import { HarnessError } from '../core/errors.ts';
import { casesOfRule } from '../service/generators/index.ts';

/** A syntactically valid Test key: the tables' titles never depend on the key, only their rows do. */
const LISTING_ENV: CaseEnv = { testKey: 'pt_test_sk_LISTING0only0no0target0' };

/** `--case N|TITLE`, checked: exactly one --rule, and that rule has such a case (exit 2 otherwise). */
export function caseOption(value: unknown, rules: readonly string[]): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw new HarnessError(
    'HPS_ERR_USAGE',
    '--case needs a case number or title (run --dry-run --cases lists them)',
  );
  if (rules.length !== 1) throw new HarnessError(
    'HPS_ERR_USAGE',
    '--case goes with exactly one --rule ID (a case is numbered within its rule)',
  );
  const rule = rules[0]!;
  const cases = casesOfRule(rule, LISTING_ENV);
  if (cases.length === 0) throw new HarnessError(
    'HPS_ERR_USAGE',
    `${rule} has no fixed cases (run --dry-run --cases lists the rules that have)`,
  );
  if (!cases.some((c) => caseMatches(value, c))) {
    throw new HarnessError(
      'HPS_ERR_USAGE',
      `${rule} has no case ${JSON.stringify(value.slice(0, 200))}: its cases are 1-${cases.length} (run --dry-run --cases --rule ${rule})`,
    );
  }
  return value;
}

/** `--dry-run --cases`: each selected rule that has fixed cases, its cases numbered and titled. */
export function printCases(selected: readonly Rule[], log: (line: string) => void = console.log): number {
  let rules = 0;
  let total = 0;
  for (const r of selected) {
    const cases = casesOfRule(r.id, LISTING_ENV);
    if (cases.length === 0) continue;
    rules++;
    total += cases.length;
    log(`\n${r.id} (${cases.length} fixed cases)`);
    for (const c of cases) log(`  ${String(c.n).padStart(3)}  ${c.title}`);
  }
  log(`\n${total} fixed cases in ${rules} rules (replay one: run --rule ID --case N)`);
  return 0;
}
