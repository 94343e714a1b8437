/**
 * `t.cases(table, check)`: a rule's fixed table, one titled case per row. Every row runs (a few at a
 * time), each leaves its own outcome in task.meta (`fixedCases`), a failing row does not stop the
 * others; then the first failing row's error (in table order) fails the rule, its evidence as
 * before. With `run --case N|TITLE` only that row runs.
 */
import { caseMatches, firstCaseOf, type CaseEnv, type CaseTable } from '../../../catalogue/case-table.ts';
import { mapLimit } from '../../../core/concurrency.ts';
import type { CaseOutcome, HpsMeta } from '../../../core/evidence.ts';

/**
 * What a row's check returns: nothing when it checked what its title says, or `{ notTried }` when the
 * profile or the target left it nothing to check (the row is `skip` with that reason, never `pass`).
 */
export type CaseResult = void | { readonly notTried: string };

export interface CaseOptions {
  /** Rows in flight at once (default 8; 1 keeps table order on the wire). */
  concurrency?: number;
}

export interface CaseRun {
  meta: HpsMeta;
  env: CaseEnv;
  /** `--case N` or `--case 'TITLE'` (absent: every row). */
  filter?: string;
  /** Whether an error is transport trouble (the row's outcome is then `error`, not `fail`). */
  isTransport: (e: unknown) => boolean;
}

const REASON_CHARS = 300;

/** A rule test's `t.cases`: each table's rows numbered as the table declares (catalogue/case-table.ts `after`). */
export function casesRunner(r: CaseRun): <Row>(
  table: CaseTable<Row>,
  check: (row: Row, index: number) => Promise<CaseResult>,
  opts?: CaseOptions,
) => Promise<void> {
  return (table, check, opts) => runCases(r, table, check, opts);
}

export async function runCases<Row>(
  r: CaseRun,
  table: CaseTable<Row>,
  check: (row: Row, index: number) => Promise<CaseResult>,
  opts: CaseOptions = {},
): Promise<void> {
  const first = firstCaseOf(table, r.env);
  const rows = table.rows(r.env).map((row, index) => ({ row, index, n: first + index, title: table.title(row, index) }));
  const chosen = r.filter === undefined ? rows : rows.filter((c) => caseMatches(r.filter!, c));
  const outcomes = await mapLimit(chosen, Math.max(1, opts.concurrency ?? 8), async (c) => {
    try {
      const result = await check(c.row, c.index);
      return { c, error: undefined, notTried: result ? result.notTried : undefined };
    } catch (error) {
      return { c, error: error ?? new Error('failed'), notTried: undefined };
    }
  });
  const list = (r.meta.fixedCases ??= []);
  for (const { c, error, notTried } of outcomes) {
    const skipped: CaseOutcome = { n: c.n, title: c.title, status: 'skip', reason: (notTried ?? '').slice(0, REASON_CHARS) };
    list.push(notTried === undefined ? outcomeOf(c, error, r.isTransport) : skipped);
  }
  const failures = outcomes.filter((o) => o.error !== undefined); // in table order
  if (failures.length === 0) return;
  const { c, error } = failures[0]!;
  if (error instanceof Error) {
    const more = failures.length > 1 ? ` (${failures.length - 1} more case(s) failed too)` : '';
    error.message = `case ${c.n} (${c.title}): ${error.message}${more}`;
  }
  throw error;
}

function outcomeOf(c: { n: number; title: string }, error: unknown, isTransport: (e: unknown) => boolean): CaseOutcome {
  if (error === undefined) return { n: c.n, title: c.title, status: 'pass' };
  const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, REASON_CHARS);
  return { n: c.n, title: c.title, status: isTransport(error) ? 'error' : 'fail', reason };
}
