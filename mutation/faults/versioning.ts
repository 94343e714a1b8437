/**
 * What must catch each planted fault of reference/faults/versioning.ts: the catalogue rules that must fail (or warn, for a SHOULD rule).
 */
import type { VERSIONING_FAULTS } from '../../reference/faults/versioning.ts';
import type { ExpectationsOf } from './expectation.ts';

export const VERSIONING_EXPECTED = {
  'version-prefix-case-insensitive': { breaks: ['VERS-UNKNOWN-VERSION-404'] },
  'any-version-prefix-served': { breaks: ['VERS-UNKNOWN-VERSION-404'] },
  'event-api-version-semver': { breaks: ['VERS-EVENT-API-VERSION'] },
} as const satisfies ExpectationsOf<typeof VERSIONING_FAULTS>;
