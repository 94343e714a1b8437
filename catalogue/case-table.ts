/**
 * A table of fixed cases of one rule: rows run on every seed, each with a title that says what
 * passing means. The rows may depend on the profile's Test key (a malformed Authorization hides it);
 * the titles never do (they reach report.json and `run --dry-run --cases`, which has no key).
 * The tables themselves are in generators/case-tables.ts; a suite runs one with `t.cases(table, check)`.
 */
import type { RuleId } from './rules.ts';

/** What a table's rows may be built from. */
export interface CaseEnv {
  /** The profile's Test key (a syntactically valid placeholder for `--dry-run --cases`). */
  readonly testKey: string;
}

export interface CaseTable<Row> {
  readonly rule: RuleId;
  /** Distinguishes a rule's tables (their rows are numbered on, in the order the rule runs them). */
  readonly name: string;
  rows(env: CaseEnv): readonly Row[];
  /** What passing this row means, e.g. `amount "1.005" is rejected with invalid_amount`: no secret. */
  title(row: Row, index: number): string;
}

/** One numbered, titled case of a rule (numbers start at 1 and run on across the rule's tables). */
export interface NumberedCase {
  readonly n: number;
  readonly title: string;
}

/** The numbered cases of a rule's tables, in the order given. */
export function numberCases(tables: ReadonlyArray<CaseTable<any>>, env: CaseEnv): NumberedCase[] {
  let n = 0;
  return tables.flatMap((table) => table.rows(env).map((row, i) => ({ n: ++n, title: table.title(row, i) })));
}

/** `--case N` or `--case 'TITLE'`: whether this numbered case is the one asked for. */
export function caseMatches(filter: string, c: NumberedCase): boolean {
  return /^\d+$/.test(filter.trim()) ? Number(filter.trim()) === c.n : filter === c.title;
}
