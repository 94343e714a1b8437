/**
 * What must catch each planted fault of reference/faults/listing.ts: the catalogue rules that must fail (or warn, for a SHOULD rule).
 */
import type { LISTING_FAULTS } from '../../reference/faults/listing.ts';
import type { ExpectationsOf } from './expectation.ts';

export const LISTING_EXPECTED = {
  'list-status-filter-ignored': { breaks: ['LIST-FILTER-STATUS'] },
  'list-external-id-prefix-match': { breaks: ['LIST-FILTER-EXTERNAL-ID'] },
  'list-date-offset-ignored': { breaks: ['LIST-FILTER-CREATED-RANGE'] },
  'list-unknown-status-ignored': { breaks: ['LIST-FILTER-STRICT'] },
  'list-malformed-date-ignored': { breaks: ['LIST-FILTER-STRICT'] },
  'list-limit-clamped': { breaks: ['LIST-LIMIT-BOUNDS'] },
  'list-default-limit-10': { breaks: ['LIST-LIMIT-DEFAULT'] },
  'list-page-includes-lookahead': { breaks: ['LIST-LIMIT-RESPECTED', 'LIST-LIMIT-DEFAULT', 'LIST-HAS-MORE'] },
  'list-starting-after-inclusive': { breaks: ['LIST-PAGINATION-COMPLETE', 'LIST-HAS-MORE', 'LIST-LIMIT-DEFAULT'] },
  'list-has-more-when-page-full': { breaks: ['LIST-HAS-MORE'] },
  // ── edges: an off-by-one in each direction of each limit, a case-folded enumeration ──
  'list-limit-accepts-101': { breaks: ['LIST-LIMIT-BOUNDS'] },
  'list-limit-accepts-0': { breaks: ['LIST-LIMIT-BOUNDS'] },
  'list-limit-rejects-100': { breaks: ['LIST-LIMIT-BOUNDS', 'LIST-LIMIT-RESPECTED'] },
  'list-limit-rejects-1': { breaks: ['LIST-LIMIT-BOUNDS', 'LIST-LIMIT-RESPECTED'] },
  'list-status-filter-case-folded': { breaks: ['LIST-FILTER-STRICT'] },
  // ── negative control for vacuous passes: no LIST-* rule may pass against it ──
  'list-always-empty': { breaks: ['LIST-FILTER-STATUS', 'LIST-FILTER-EXTERNAL-ID', 'LIST-FILTER-CREATED-RANGE', 'LIST-FILTER-STRICT', 'LIST-LIMIT-BOUNDS', 'LIST-LIMIT-DEFAULT', 'LIST-LIMIT-RESPECTED', 'LIST-PAGINATION-COMPLETE', 'LIST-HAS-MORE'] },
  'list-external-id-case-folded': { breaks: ['LIST-FILTER-EXTERNAL-ID'] },
} as const satisfies ExpectationsOf<typeof LISTING_FAULTS>;
