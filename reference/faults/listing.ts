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
} satisfies Record<string, FaultDefinition>;
