/**
 * Planted faults of the listing area (spec, "listPayments query parameters", "PaymentList",
 * "Request filters are strict", Limits). Each branch lives in reference/listing.ts.
 */
import type { FaultDefinition } from '../faults.ts';

export const LISTING_FAULTS = {
  'list-status-filter-ignored': {
    description: 'The status filter is parsed but never applied: every status is listed.',
    breaks: ['LIST-FILTER-STATUS'],
  },
  'list-external-id-prefix-match': {
    description: 'The external_id filter matches by prefix (like SQL LIKE \'x%\'), so x also lists x-2.',
    breaks: ['LIST-FILTER-EXTERNAL-ID'],
  },
  'list-date-offset-ignored': {
    description: 'created_from / created_to drop their UTC offset: the wall-clock time is read as UTC.',
    breaks: ['LIST-FILTER-CREATED-RANGE'],
  },
  'list-unknown-status-ignored': {
    description: 'An unknown status filter value is dropped (no filter) instead of answered 400 invalid_request.',
    breaks: ['LIST-FILTER-STRICT'],
  },
  'list-malformed-date-ignored': {
    description: 'A created_from / created_to that does not parse is dropped instead of answered 400 invalid_request.',
    breaks: ['LIST-FILTER-STRICT'],
  },
  'list-limit-clamped': {
    description: 'limit is read with parseInt and clamped into 1..100 (20 when unreadable) instead of rejected.',
    breaks: ['LIST-LIMIT-BOUNDS'],
  },
  'list-default-limit-10': {
    description: 'Without limit a page holds 10 Payments instead of the default 20.',
    breaks: ['LIST-LIMIT-DEFAULT'],
  },
  'list-page-includes-lookahead': {
    description: 'The extra Payment fetched to compute has_more is left on the page: limit + 1 items.',
    breaks: ['LIST-LIMIT-RESPECTED', 'LIST-LIMIT-DEFAULT', 'LIST-HAS-MORE'],
  },
  'list-starting-after-inclusive': {
    description: 'starting_after includes the cursor Payment itself, so it is listed again on the next page.',
    breaks: ['LIST-PAGINATION-COMPLETE', 'LIST-HAS-MORE', 'LIST-LIMIT-DEFAULT'],
  },
  'list-has-more-when-page-full': {
    description: 'has_more is computed as "the page is full", so it is true when exactly limit Payments remain.',
    breaks: ['LIST-HAS-MORE'],
  },
  // ── edges: an off-by-one in each direction of each limit, a case-folded enumeration ──
  'list-limit-accepts-101': {
    description: 'The upper bound of limit is off by one: limit=101 is accepted (a page of up to 101).',
    breaks: ['LIST-LIMIT-BOUNDS'],
  },
  'list-limit-accepts-0': {
    description: 'The lower bound of limit is off by one: limit=0 is accepted (an empty page).',
    breaks: ['LIST-LIMIT-BOUNDS'],
  },
  'list-limit-rejects-100': {
    description: 'The upper bound of limit is exclusive: limit=100, the limit itself, is refused with 400 invalid_request.',
    breaks: ['LIST-LIMIT-BOUNDS', 'LIST-LIMIT-RESPECTED'],
  },
  'list-limit-rejects-1': {
    description: 'The lower bound of limit is exclusive: limit=1, the limit itself, is refused with 400 invalid_request.',
    breaks: ['LIST-LIMIT-BOUNDS', 'LIST-LIMIT-RESPECTED'],
  },
  'list-status-filter-case-folded': {
    description: 'The status filter is trimmed and upper-cased before it is checked: "paid" or " PAID" lists PAID Payments instead of answering 400.',
    breaks: ['LIST-FILTER-STRICT'],
  },
  // ── negative control for vacuous passes: no LIST-* rule may pass against it ──
  'list-always-empty': {
    description: 'Every page is empty (data [], has_more false): the list query reads a replica that is never filled.',
    breaks: ['LIST-FILTER-STATUS', 'LIST-FILTER-EXTERNAL-ID', 'LIST-FILTER-CREATED-RANGE', 'LIST-FILTER-STRICT', 'LIST-LIMIT-BOUNDS',
      'LIST-LIMIT-DEFAULT', 'LIST-LIMIT-RESPECTED', 'LIST-PAGINATION-COMPLETE', 'LIST-HAS-MORE'],
  },
} satisfies Record<string, FaultDefinition>;
