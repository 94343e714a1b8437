/**
 * The listing area's fixed tables (catalogue/case-table.ts): strict filters (unknown statuses, near
 * misses of a PaymentStatus, malformed dates, and the values strictness must still accept), the
 * external_id filter's exact matches, and the limits and statuses paged over a window. Limits
 * derived from the window's size at run time (paging edges) are not tables.
 */
import type { CaseTable } from '../../../catalogue/case-table.ts';
import { PAYMENT_STATUSES } from '../../../catalogue/schemas/index.ts';
import { enumNearMisses, type NearMiss } from '../enum-near-misses.ts';

const quoted = (v: unknown): string => JSON.stringify(v) ?? String(v);

/** LIST-FILTER-STRICT, first table: status values no v1 target can know (contrived names, lists, other types' spellings). */
export const UNKNOWN_STATUS_CASES: CaseTable<string> = {
  rule: 'LIST-FILTER-STRICT',
  name: 'unknown status values',
  rows: () => ['NOT_A_STATUS', 'PAID,CANCELLED', 'PENDING|PAID', '*', 'null', 'true', '0', '[]', '%', 'PAID;PENDING', 'PENDINGX', 'PAI'],
  title: (s) => `status=${quoted(s)} (no PaymentStatus) answers 400 invalid_request`,
};

/** LIST-FILTER-STRICT: each PaymentStatus in another letter case or padded: not the value, so a strict filter refuses it. */
export const STATUS_NEAR_MISS_CASES: CaseTable<NearMiss> = {
  rule: 'LIST-FILTER-STRICT',
  name: 'near misses of a PaymentStatus',
  rows: () => enumNearMisses(PAYMENT_STATUSES),
  title: (m) => `status=${quoted(m.value)} (${m.why}, not a PaymentStatus) answers 400 invalid_request`,
  after: UNKNOWN_STATUS_CASES,
};

/** A date filter and its value. */
export interface DateFilterRow {
  readonly param: 'created_from' | 'created_to';
  readonly value: string;
}

const MALFORMED_DATES = ['not-a-date', 'yesterday', 'now', 'abc', '2024-13-01T00:00:00Z', '2024-01-32T00:00:00Z',
  '2024-01-01T24:00:01Z', '2024-01-01T25:00:00Z', '2024-01-01T10:60:00Z', '2024-01-01T10:00:61Z', '2024-00-10T00:00:00Z',
  '2024-01-00T00:00:00Z', '20240101T00:00:00Zjunk', 'T00:00:00Z', '--'];

/** LIST-FILTER-STRICT: dates that are no RFC 3339 date-time by any reading (each field one past its range), in either filter. */
export const MALFORMED_DATE_CASES: CaseTable<DateFilterRow> = {
  rule: 'LIST-FILTER-STRICT',
  name: 'malformed dates',
  rows: () => MALFORMED_DATES.flatMap((value) => (['created_from', 'created_to'] as const).map((param) => ({ param, value }))),
  title: (r) => `${r.param}=${quoted(r.value)} (no RFC 3339 date-time) answers 400 invalid_request`,
  after: STATUS_NEAR_MISS_CASES,
};

/** LIST-FILTER-STRICT: strictness rejects only what is malformed: every PaymentStatus is accepted. */
export const KNOWN_STATUS_CASES: CaseTable<string> = {
  rule: 'LIST-FILTER-STRICT',
  name: 'each PaymentStatus',
  rows: () => PAYMENT_STATUSES,
  title: (s) => `status=${s} (a PaymentStatus) answers 200${s === 'PENDING' ? ' listing the PENDING Payment just created' : ''}`,
  after: MALFORMED_DATE_CASES,
};

/** LIST-FILTER-STRICT: RFC 3339 dates (Z, an offset, fractional seconds) are accepted. */
export const RFC3339_DATE_CASES: CaseTable<string> = {
  rule: 'LIST-FILTER-STRICT',
  name: 'RFC 3339 dates',
  rows: () => ['2024-01-01T00:00:00Z', '2024-01-01T06:00:00+06:00', '2024-01-01T00:00:00.5-05:30'],
  title: (v) => `created_from=${v} (RFC 3339) answers 200 listing the Payment just created`,
  after: KNOWN_STATUS_CASES,
};

/** One external_id filter of LIST-FILTER-EXTERNAL-ID, by its place among the test's Payments (x, x-2, x-2-3, X …). */
export interface ExternalIdFilterRow {
  /** Index into the test's cases (the external ids are the run's, made at run time). */
  readonly index: number;
  readonly limit: number | undefined;
}

const EXTERNAL_ID_FILTERS = [
  'x lists exactly the Payment whose external_id is x',
  'x-2 lists exactly its (cancelled) Payment, not x\'s nor x-2-3\'s',
  'x-2-3 lists exactly its Payment',
  'X (x in upper case, another Payment\'s) lists exactly that Payment, not x\'s',
  'X-2 (x-2 in upper case, never used) lists nothing',
  'x- (a prefix of x-2) lists nothing',
  'x-2- (a prefix of x-2-3) lists nothing',
  'an external_id never used lists nothing',
];

/** LIST-FILTER-EXTERNAL-ID: external ids extending one another, differing in letter case, or unused; without limit and at limit 1. */
export const EXTERNAL_ID_FILTER_CASES: CaseTable<ExternalIdFilterRow> = {
  rule: 'LIST-FILTER-EXTERNAL-ID',
  name: 'external ids extending one another',
  rows: () => EXTERNAL_ID_FILTERS.flatMap((_, index) => [undefined, 1].map((limit) => ({ index, limit }))),
  title: (r) => `external_id=${EXTERNAL_ID_FILTERS[r.index]}${r.limit === undefined ? '' : ` (limit=${r.limit})`}`,
};

/** LIST-HAS-MORE (the filter test): a filter matching one Payment, at limit 1 and 20. */
export const ONE_MATCH_CASES: CaseTable<number> = {
  rule: 'LIST-HAS-MORE',
  name: 'a filter matching one Payment',
  rows: () => [1, 20],
  title: (limit) => `an external_id filter matching one Payment, limit=${limit}: that Payment alone with has_more false`,
};

/** LIST-LIMIT-RESPECTED: the edges of 1..100. */
export const LIMIT_RESPECTED_CASES: CaseTable<number> = {
  rule: 'LIST-LIMIT-RESPECTED',
  name: 'limits at the edges of 1..100',
  rows: () => [1, 2, 99, 100],
  title: (limit) => `limit=${limit}: no page holds more than ${limit} Payments, and a page saying has_more true holds exactly ${limit}`,
};

/** LIST-FILTER-STATUS: every PaymentStatus (a table, not a draw). */
export const STATUS_FILTER_CASES: CaseTable<string> = {
  rule: 'LIST-FILTER-STATUS',
  name: 'each PaymentStatus',
  rows: () => PAYMENT_STATUSES,
  title: (s) => `status=${s} over the window lists only ${s} Payments, every one of this run's, and ends`,
};

/** How a batch Payment reached its state: created (PENDING), or moved by one of the three actions. */
export type BatchMove = 'none' | 'succeed' | 'cancel' | 'helper-cancel' | 'reverse';

/** One tight created range: 1 ms either side of the created_at of a batch Payment reached by `move`, written in `offsetMinutes`. */
export interface TightRangeRow {
  readonly move: BatchMove;
  readonly offsetMinutes: number;
}

const MOVED_TO: Record<BatchMove, string> = {
  none: 'PENDING', succeed: 'PAID (succeed helper)', cancel: 'CANCELLED (cancelPayment)', 'helper-cancel': 'CANCELLED (cancel helper)',
  reverse: 'REVERSED (succeed helper, then the control API\'s reversal)',
};

const offsetLabel = (m: number): string => (m === 0 ? 'Z' : `${m < 0 ? '-' : '+'}${String(Math.floor(Math.abs(m) / 60)).padStart(
  2,
  '0',
)}:${String(Math.abs(m) % 60).padStart(2, '0')}`);

/**
 * LIST-FILTER-CREATED-RANGE: a Payment of every state the batch reaches, alone in a range 1 ms
 * either side of its created_at, in UTC and in an offset: a range that reads another instant for
 * some states (paid_at, cancelled_at, an updated_at) is caught on every seed, not only when a
 * drawn range happens to hold a Payment of that state.
 */
export const TIGHT_RANGE_CASES: CaseTable<TightRangeRow> = {
  rule: 'LIST-FILTER-CREATED-RANGE',
  name: 'a Payment of each state alone in a tight range',
  rows: () => ([
    'none',
    'succeed',
    'cancel',
    'helper-cancel',
  ] as const).flatMap((move) => [0, 345].map((offsetMinutes) => ({ move, offsetMinutes }))),
  title: (r) => `created_from / created_to 1 ms either side of a ${MOVED_TO[r.move]} Payment's created_at ` +
    `(${offsetLabel(r.offsetMinutes)}) list it`,
};

/** How the cursor's Payment leaves PENDING after its page was read. */
export type CursorChangeMove = 'cancel' | 'succeed' | 'helper-cancel';

/**
 * LIST-CURSOR-AFTER-CHANGE: a status=PENDING page's last id sent back as starting_after (the spec's
 * mechanism; next_cursor's relation to it is not shown), its Payment moved before the next page.
 */
export const CURSOR_AFTER_CHANGE_CASES: CaseTable<CursorChangeMove> = {
  rule: 'LIST-CURSOR-AFTER-CHANGE',
  name: 'a cursor whose Payment left the filter',
  rows: () => ['cancel', 'succeed', 'helper-cancel'],
  title: (move) => `status=PENDING, limit=1: the page's last id sent back as starting_after after its Payment was moved by ${move} ` +
    'is answered 200 with the PENDING Payments after it',
};

export const LISTING_CASE_TABLES: ReadonlyArray<CaseTable<any>> = [
  UNKNOWN_STATUS_CASES, STATUS_NEAR_MISS_CASES, MALFORMED_DATE_CASES, KNOWN_STATUS_CASES, RFC3339_DATE_CASES,
  EXTERNAL_ID_FILTER_CASES, ONE_MATCH_CASES, LIMIT_RESPECTED_CASES, STATUS_FILTER_CASES, TIGHT_RANGE_CASES,
  CURSOR_AFTER_CHANGE_CASES,
];
