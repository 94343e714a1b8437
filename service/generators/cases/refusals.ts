/**
 * CREATE-REFUSAL-NO-TRACE's fixed table (catalogue/case-table.ts): one row per kind of refused create
 * the suite can provoke, at validation and at the store checks (customer, order, Live readiness).
 * What each row sends is built by the suite from the profile (suites/_shared/refusal-trace.ts); a row
 * the profile gives nothing to provoke is `skip`, never `pass`. Rows alternate with and without an
 * Idempotency-Key, so both paths of a create are met on every seed.
 */
import type { CaseTable } from '../../../catalogue/case-table.ts';
import type { ErrorCode } from '../../../catalogue/error-codes.ts';

/** The refusals the table provokes, by the code the spec gives them. */
type RefusalKind = Extract<ErrorCode,
  | 'invalid_amount'
  | 'invalid_return_url'
  | 'invalid_customer'
  | 'order_not_found'
  | 'order_customer_mismatch'
  | 'exceeds_order_due'
  | 'order_cancelled'
  | 'payment_method_unavailable'
  | 'payment_channel_unavailable'>;

export interface RefusalRow {
  readonly code: RefusalKind;
  readonly status: 400 | 409;
  /** What provokes it, in words. */
  readonly what: string;
  /** The refused create and the valid one after it carry the same Idempotency-Key. */
  readonly keyed: boolean;
  /** The refused create names the order fixture: the valid one after it is a create of exactly its remaining due. */
  readonly onOrder: boolean;
}

const row = (code: RefusalKind, status: 400 | 409, what: string, onOrder = false) => ({ code, status, what, onOrder });

const KINDS = [
  row('invalid_amount', 400, 'amount "0"'),
  row('invalid_return_url', 400, 'return_url javascript:'),
  row('invalid_customer', 400, 'a customer_id not of the business'),
  row('order_not_found', 400, 'an order_id the business does not have'),
  row('order_customer_mismatch', 400, 'the order fixture with another customer', true),
  row('exceeds_order_due', 400, 'one cent above the order fixture\'s remaining due', true),
  row('order_cancelled', 409, 'the cancelled order fixture'),
  row('payment_method_unavailable', 409, 'keys.live asking only for a method live_receiving lacks'),
  row('payment_channel_unavailable', 409, 'keys.live asking only for a channel live_receiving lacks'),
];

export const REFUSAL_TRACE_CASES: CaseTable<RefusalRow> = {
  rule: 'CREATE-REFUSAL-NO-TRACE',
  name: 'one refused create of each kind',
  rows: () => KINDS.map((k, i) => ({ ...k, keyed: i % 2 === 0 })),
  title: (r) => `a create refused ${r.status} ${r.code} (${r.what}${r.keyed ? ', with an Idempotency-Key' : ''}) holds nothing: the ` +
    `next valid create with its external_id${r.keyed ? ' and key' : ''} is 201` +
    `${r.onOrder ? ', for exactly the order\'s remaining due' : ''}`,
};

export const REFUSAL_CASE_TABLES: ReadonlyArray<CaseTable<any>> = [REFUSAL_TRACE_CASES];
