/**
 * Planted faults of the listing area (spec, "listPayments query parameters", "PaymentList",
 * "Request filters are strict", Limits). Each branch lives in reference/listing.ts.
 */

export const LISTING_FAULTS = {
  'list-status-filter-ignored':
    'The status filter is parsed but never applied: every status is listed.',
  'list-external-id-prefix-match':
    'The external_id filter matches by prefix (like SQL LIKE \'x%\'), so x also lists x-2.',
  'list-date-offset-ignored':
    'created_from / created_to drop their UTC offset: the wall-clock time is read as UTC.',
  'list-unknown-status-ignored':
    'An unknown status filter value is dropped (no filter) instead of answered 400 invalid_request.',
  'list-malformed-date-ignored':
    'A created_from / created_to that does not parse is dropped instead of answered 400 invalid_request.',
  'list-limit-clamped':
    'limit is read with parseInt and clamped into 1..100 (20 when unreadable) instead of rejected.',
  'list-default-limit-10':
    'Without limit a page holds 10 Payments instead of the default 20.',
  'list-page-includes-lookahead':
    'The extra Payment fetched to compute has_more is left on the page: limit + 1 items.',
  'list-starting-after-inclusive':
    'starting_after includes the cursor Payment itself, so it is listed again on the next page.',
  'list-has-more-when-page-full':
    'has_more is computed as "the page is full", so it is true when exactly limit Payments remain.',
  // ── edges: an off-by-one in each direction of each limit, a case-folded enumeration ──
  'list-limit-accepts-101':
    'The upper bound of limit is off by one: limit=101 is accepted (a page of up to 101).',
  'list-limit-accepts-0':
    'The lower bound of limit is off by one: limit=0 is accepted (an empty page).',
  'list-limit-rejects-100':
    'The upper bound of limit is exclusive: limit=100, the limit itself, is refused with 400 invalid_request.',
  'list-limit-rejects-1':
    'The lower bound of limit is exclusive: limit=1, the limit itself, is refused with 400 invalid_request.',
  'list-status-filter-case-folded':
    'The status filter is trimmed and upper-cased before it is checked: "paid" or " PAID" lists PAID Payments instead of answering 400.',
  // ── nothing is ever listed (the suite uses it to prove no rule passes vacuously) ──
  'list-always-empty':
    'Every page is empty (data [], has_more false): the list query reads a replica that is never filled.',
  'list-external-id-case-folded':
    'The external_id filter matches case-insensitively: external_id=ORD-1 also lists the Payment of ord-1.',
} as const satisfies Readonly<Record<string, string>>;
