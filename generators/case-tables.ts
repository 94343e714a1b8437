/**
 * The fixed case tables of the suites: each row runs on every seed, numbered and titled with what
 * passing means (catalogue/case-table.ts). A suite runs a table with `t.cases(TABLE, check)`;
 * `run --dry-run --cases` lists them from here, `run --rule ID --case N` replays one row.
 * Titles never carry the key a row may hide.
 */
import type { CaseEnv, CaseTable, NumberedCase } from '../catalogue/case-table.ts';
import { numberCases } from '../catalogue/case-table.ts';
import type { RuleId } from '../catalogue/rules.ts';
import { OPERATIONS, type Operation } from '../schemas/index.ts';
import { malformedAuthorizationTable } from './malformed-authorization.ts';
import type { BadCredential } from './internal/credentials.ts';

const quoted = (v: unknown): string => JSON.stringify(v) ?? String(v);

/** CREATE-AMOUNT-INVALID: amounts that are not a positive decimal string with at most two decimals. */
export const INVALID_AMOUNT_CASES: CaseTable<string> = {
  rule: 'CREATE-AMOUNT-INVALID',
  name: 'invalid amounts',
  rows: () => [
    '0', '0.00', '000', '-1.00', '-0.01', '1.005', '0.001', '10.999', '1e3', '1E2', '+5', ' 5', '5 ', '',
    'abc', '1,50', '1,000.00', 'NaN', 'Infinity', '0x10', '1.2.3', '.', '10 BDT',
  ],
  title: (v) => `amount ${quoted(v)} is rejected with 400 invalid_amount`,
};

/** CREATE-AMOUNT-NOT-STRING: amounts of another JSON type than string. */
export const AMOUNT_NOT_STRING_CASES: CaseTable<unknown> = {
  rule: 'CREATE-AMOUNT-NOT-STRING',
  name: 'amounts that are not strings',
  rows: () => [10, 10.5, 0.01, 12345678901234567.89, 0, -5, true, null, ['10.00'], { value: '10.00' }],
  title: (v) => `amount ${quoted(v)} (a JSON ${v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v}) is rejected with 400 invalid_amount or invalid_request`,
};

/** One malformed Authorization form, sent on an operation (the operations taken in turn). */
export interface MalformedKeyCase {
  readonly cred: BadCredential;
  readonly op: Operation;
  /** The form's place in its family, e.g. 2 of 6. */
  readonly form: { readonly k: number; readonly of: number };
}

/** AUTH-MALFORMED-KEY: every fixed form of every family (generators/malformed-authorization.ts), on operations in turn. */
export const MALFORMED_KEY_CASES: CaseTable<MalformedKeyCase> = {
  rule: 'AUTH-MALFORMED-KEY',
  name: 'malformed Authorization forms',
  rows: (env: CaseEnv) => {
    const creds = malformedAuthorizationTable(env.testKey);
    const perFamily = new Map<string, number>();
    for (const c of creds) perFamily.set(c.family, (perFamily.get(c.family) ?? 0) + 1);
    const seen = new Map<string, number>();
    return creds.map((cred, i) => {
      const k = (seen.get(cred.family) ?? 0) + 1;
      seen.set(cred.family, k);
      return { cred, op: OPERATIONS[i % OPERATIONS.length]!, form: { k, of: perFamily.get(cred.family)! } };
    });
  },
  title: (c) => `${c.cred.family} (form ${c.form.k} of ${c.form.of}) on ${c.op.operationId} answers 401 invalid_api_key${c.op.testOnly && /pt_live_sk_/.test(c.cred.authorization ?? '') ? ' (or 404 not_found: a Live-shaped token on a test helper)' : ''}`,
};

/** Every table, in the order each rule runs its own. */
export const CASE_TABLES: ReadonlyArray<CaseTable<any>> = [INVALID_AMOUNT_CASES, AMOUNT_NOT_STRING_CASES, MALFORMED_KEY_CASES];

/** The numbered cases of a rule (empty: the rule has no fixed table). */
export function casesOfRule(rule: RuleId | string, env: CaseEnv): NumberedCase[] {
  return numberCases(CASE_TABLES.filter((t) => t.rule === rule), env);
}
