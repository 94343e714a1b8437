/**
 * The fixed case tables of the suites: each row runs on every seed, numbered and titled with what
 * passing means (catalogue/case-table.ts). A suite runs a table with `t.cases(TABLE, check)`;
 * `run --dry-run --cases` lists them from here, `run --rule ID --case N` replays one row.
 * Titles never carry the key a row may hide.
 */
import type { CaseEnv, CaseTable, NumberedCase } from '../../catalogue/case-table.ts';
import { numberCases } from '../../catalogue/case-table.ts';
import type { RuleId } from '../../catalogue/rules.ts';
import { OPERATIONS, type Operation } from '../../catalogue/schemas/index.ts';
import { malformedAuthorizationTable } from './malformed-authorization.ts';
import type { BadCredential } from './internal/credentials.ts';
import { WRONG_TYPE_CODES } from './wrong-type-field.ts';
import type { CreateRequestField } from './create-payment-request.ts';
import { AUTH_CASE_TABLES } from './cases/auth.ts';
import { CONCURRENT_CASES } from './cases/concurrent.ts';
import { CREATE_CASE_TABLES_A } from './cases/create.ts';
import { CREATE_CASE_TABLES_B } from './cases/create-limits.ts';
import { LISTING_CASE_TABLES } from './cases/listing.ts';
import { REFUSAL_CASE_TABLES } from './cases/refusals.ts';
import { ROUTES_VERSIONS_CASE_TABLES } from './cases/routes-versions.ts';
import { STATES_CASE_TABLES } from './cases/states.ts';
import { WEBHOOKS_CASE_TABLES } from './cases/webhooks.ts';
import { SINGLE_FIELD_RULE_IDS, type SingleFieldRuleId } from './invalid-case.ts';
import { edgesOf, type FieldViolation } from './internal/field-violation.ts';

const quoted = (v: unknown): string => JSON.stringify(v) ?? String(v);
/** DEL and C1 controls, which JSON leaves raw, written as \\u escapes (a title shows what is sent). */
const escapedControls = (s: string): string => s.replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

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
  title: (v) => `amount ${quoted(v)} (a JSON ${v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v}) is rejected with 400 ` +
    `invalid_amount or invalid_request`,
};

/** One field of a create body given a value of the wrong JSON type. */
export interface WrongTypeCase {
  readonly field: CreateRequestField;
  readonly value: unknown;
}

const WRONG_TYPES: Record<CreateRequestField, unknown[]> = {
  amount: [10, ['10.00']],
  description: [5, ['a'], { text: 'a' }, false],
  merchant_reference: [true, 1042, ['INV-1']],
  external_id: [123, { id: 'x' }],
  return_url: [{ url: 'https://shop.example.com/done' }, 1],
  metadata: ['order=1', ['k', 'v'], 7, true],
  allowed_methods: ['BKASH', { BKASH: true }, 1],
  allowed_channels: ['PAYMENT', { PAYMENT: true }, false],
  customer_id: [42, ['cus_1']],
  order_id: [{ id: 'ord_1' }, 7],
};

/** CREATE-WRONG-TYPE: each field of CreatePaymentRequest given values of other JSON types. */
export const WRONG_TYPE_CASES: CaseTable<WrongTypeCase> = {
  rule: 'CREATE-WRONG-TYPE',
  name: 'fields of the wrong JSON type',
  rows: () => (Object.entries(WRONG_TYPES) as Array<[CreateRequestField, unknown[]]>).flatMap(([field, values]) => values.map((value) => ({
    field,
    value,
  }))),
  title: (c) => `${c.field} ${quoted(c.value)} is rejected with 400 ${WRONG_TYPE_CODES[c.field].join(' or ')}`,
};

/** LIST-LIMIT-BOUNDS, first table: limits outside 1..100 or not an integer. */
export const BAD_LIMIT_CASES: CaseTable<string> = {
  rule: 'LIST-LIMIT-BOUNDS',
  name: 'limits outside 1..100',
  rows: () => [
    '0',
    '101',
    '-1',
    '1000',
    '-100',
    '9999999999999999999999',
    '0.5',
    '1.5',
    '99.5',
    '100.5',
    '100.1',
    'abc',
    '20abc',
    'NaN',
    'Infinity',
  ],
  title: (limit) => `limit=${limit} is rejected with 400 invalid_request`,
};

/** LIST-LIMIT-BOUNDS, second table: limits at each edge of 1..100 and within. */
export const GOOD_LIMIT_CASES: CaseTable<string> = {
  rule: 'LIST-LIMIT-BOUNDS',
  name: 'limits within 1..100',
  rows: () => ['1', '2', '20', '99', '100'],
  title: (limit) => `limit=${limit} answers 200 listing at least the Payment just created`,
  after: BAD_LIMIT_CASES,
};

/** One malformed Authorization form, sent on an operation (the operations taken in turn). */
export interface MalformedKeyCase {
  readonly cred: BadCredential;
  readonly op: Operation;
  /** The form's place in its family, e.g. 2 of 6. */
  readonly form: { readonly k: number; readonly of: number };
}

/** AUTH-MALFORMED-KEY: every fixed form of every family (service/generators/malformed-authorization.ts), on operations in turn. */
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
  title: (c) => `${c.cred.family} (form ${c.form.k} of ${c.form.of}) on ${c.op.operationId} answers 401 ` +
    `invalid_api_key${c.op.testOnly && /pt_live_sk_/.test(c.cred.authorization ?? '') ? ' (or 404 not_found: a Live-shaped token on a ' +
      'test helper)' : ''}`,
};

/**
 * A single-field rule's fixed violations (its generator file's `FIELD_RULES.edges`), each sent in an
 * otherwise valid body by the rule's derived test (suites/create/field-rules.ts).
 */
function edgeTable(rule: SingleFieldRuleId): CaseTable<FieldViolation> {
  return {
    rule,
    name: 'fixed violations',
    rows: () => edgesOf(rule),
    title: (v) => `${v.remove ? `a body without ${v.slot}` : `${v.slot} ${escapedControls(quoted(v.value))}`} is rejected with ` +
      `400 ${v.case.codes.join(' or ')}`,
  };
}

const EDGE_TABLES = new Map(SINGLE_FIELD_RULE_IDS.filter((r) => edgesOf(r).length > 0).map((r) => [r, edgeTable(r)] as const));

/** The fixed table of a single-field rule whose generator file declares `edges`, or undefined. */
export function fieldRuleEdgeTable(rule: SingleFieldRuleId): CaseTable<FieldViolation> | undefined {
  return EDGE_TABLES.get(rule);
}

/** Every table (a rule's tables are numbered by their `after` chain, not by their place here). */
export const CASE_TABLES: ReadonlyArray<CaseTable<any>> = [
  INVALID_AMOUNT_CASES, AMOUNT_NOT_STRING_CASES, WRONG_TYPE_CASES, MALFORMED_KEY_CASES, BAD_LIMIT_CASES, GOOD_LIMIT_CASES,
  ...AUTH_CASE_TABLES, ...CREATE_CASE_TABLES_A, ...CREATE_CASE_TABLES_B,
  ...LISTING_CASE_TABLES, ...REFUSAL_CASE_TABLES,
  ...ROUTES_VERSIONS_CASE_TABLES, ...STATES_CASE_TABLES, ...WEBHOOKS_CASE_TABLES, ...EDGE_TABLES.values(),
  CONCURRENT_CASES,
];

/** The numbered cases of a rule (empty: the rule has no fixed table). */
export function casesOfRule(rule: RuleId | string, env: CaseEnv): NumberedCase[] {
  return numberCases(CASE_TABLES.filter((t) => t.rule === rule), env);
}
