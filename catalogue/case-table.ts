/**
 * A table of fixed cases of one rule: rows run on every seed, each with a title that says what
 * passing means. The rows may depend on the profile's Test key (a malformed Authorization hides it);
 * the titles never do (they reach report.json and `run --dry-run --cases`, which has no key).
 * The tables themselves are in service/generators/case-tables.ts; a suite runs one with `t.cases(table, check)`.
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
  /**
   * The rule's table numbered just before this one: this table's rows are numbered on from its last
   * (absent: from 1). The numbers are the table's own, whichever test of the rule runs it and in
   * whatever order, so `--case N` names the same row in every test and in `--dry-run --cases`.
   */
  readonly after?: CaseTable<any>;
}

/** The rule's tables chained by `after` are a handful; a longer chain is a cycle. */
const MAX_CHAIN = 64;

/** The number of a table's first row: 1 plus the rows of the tables it is numbered after. */
export function firstCaseOf(table: CaseTable<any>, env: CaseEnv): number {
  let n = 1;
  let depth = 0;
  for (let t = table.after; t !== undefined; t = t.after) {
    if (++depth > MAX_CHAIN) throw new Error(`case table ${table.rule}/${table.name}: its after chain does not end`);
    n += t.rows(env).length;
  }
  return n;
}

/** One numbered, titled case of a rule (numbers start at 1 and run on across the rule's tables). */
export interface NumberedCase {
  readonly n: number;
  readonly title: string;
}

/** The numbered cases of a rule's tables (each numbered from its `after` chain), in number order. */
export function numberCases(tables: ReadonlyArray<CaseTable<any>>, env: CaseEnv): NumberedCase[] {
  return tables
    .flatMap((table) => {
      const first = firstCaseOf(table, env);
      return table.rows(env).map((row, i) => ({ n: first + i, title: table.title(row, i) }));
    })
    .sort((a, b) => a.n - b.n);
}

/** `--case N` or `--case 'TITLE'`: whether this numbered case is the one asked for. */
export function caseMatches(filter: string, c: NumberedCase): boolean {
  return /^\d+$/.test(filter.trim()) ? Number(filter.trim()) === c.n : filter === c.title;
}
